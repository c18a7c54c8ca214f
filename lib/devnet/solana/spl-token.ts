import { AccountState, getMintDecoder, getMintSize, getTokenDecoder, getTokenSize, TOKEN_PROGRAM_ADDRESS, type Mint, type Token } from "@solana-program/token";
import { isSome } from "@solana/kit";
import type { LedgerAccount } from "./ledger";

/** The SPL Token account in `account`, or null when it is not one (Token-2022 is not handled). */
export function decodeTokenAccount(account: LedgerAccount | null): Token | null {
  if (!account || account.owner !== TOKEN_PROGRAM_ADDRESS || account.data.length !== getTokenSize()) return null;
  return getTokenDecoder().decode(account.data);
}

export function decodeMintAccount(account: LedgerAccount | null): Mint | null {
  if (!account || account.owner !== TOKEN_PROGRAM_ADDRESS || account.data.length !== getMintSize()) return null;
  const mint = getMintDecoder().decode(account.data);
  return mint.isInitialized ? mint : null;
}

/** `{amount, decimals, uiAmount, uiAmountString}` as the RPC reports token amounts. */
export function uiTokenAmount(amount: bigint, decimals: number) {
  const digits = amount.toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

/** The `jsonParsed` form of an SPL Token account or mint, or null for any other account. */
export function parsedTokenData(account: LedgerAccount, mintOf: (mint: string) => Mint | null) {
  const token = decodeTokenAccount(account);
  if (token) {
    const decimals = mintOf(token.mint)?.decimals ?? 0;
    const info: Record<string, unknown> = {
      isNative: isSome(token.isNative),
      mint: token.mint,
      owner: token.owner,
      state: token.state === AccountState.Frozen ? "frozen" : token.state === AccountState.Initialized ? "initialized" : "uninitialized",
      tokenAmount: uiTokenAmount(token.amount, decimals),
    };
    if (isSome(token.delegate)) {
      info.delegate = token.delegate.value;
      info.delegatedAmount = uiTokenAmount(token.delegatedAmount, decimals);
    }
    if (isSome(token.closeAuthority)) info.closeAuthority = token.closeAuthority.value;
    return { program: "spl-token", parsed: { type: "account", info }, space: BigInt(account.data.length) };
  }
  const mint = decodeMintAccount(account);
  if (mint) {
    return {
      program: "spl-token",
      parsed: {
        type: "mint",
        info: {
          decimals: mint.decimals,
          freezeAuthority: isSome(mint.freezeAuthority) ? mint.freezeAuthority.value : null,
          isInitialized: mint.isInitialized,
          mintAuthority: isSome(mint.mintAuthority) ? mint.mintAuthority.value : null,
          supply: mint.supply.toString(),
        },
      },
      space: BigInt(account.data.length),
    };
  }
  return null;
}
