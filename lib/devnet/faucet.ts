import { z } from "zod";
import { parseMinorUnits, USDC_DECIMALS } from "@/lib/platform/money";
import { DomainError } from "@/lib/platform/errors";
import type { PaymentNetwork } from "@/lib/platform/networks";
import { FAUCET_MAX_USDC } from "./chains";
import type { Devnet } from "./start-devnet";

const faucetBody = z.object({
  network: z.string().min(1, "is required"),
  address: z.string().min(1, "is required").max(100),
  amount: z.string().regex(/^\d{1,6}(\.\d{1,6})?$/, `must be a decimal string of USDC, at most ${FAUCET_MAX_USDC}`),
});

function validAddress(n: PaymentNetwork, address: string): boolean {
  return n.kind === "evm" ? /^0x[0-9a-fA-F]{40}$/.test(address) : /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address);
}

/** Mints devnet USDC to a wallet: `{network, address, amount}` with amount in USDC (at most 10000). */
export async function faucet(devnet: Devnet, body: unknown) {
  const parsed = faucetBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DomainError("invalid_param", issue?.message ?? "is invalid", { path: issue?.path.map((p) => (typeof p === "number" ? p : String(p))) ?? [] });
  }
  const { network, address, amount } = parsed.data;
  const n = devnet.networks.find((x) => x.network === network);
  if (!n) throw new DomainError("unknown_network", `must be one of ${devnet.networks.map((x) => x.network).join(", ")}`, { path: ["network"] });
  if (!validAddress(n, address))
    throw new DomainError("invalid_address", `is not a ${n.kind === "evm" ? "0x EVM" : "base58 Solana"} address`, { path: ["address"] });
  const atomic = parseMinorUnits(amount, USDC_DECIMALS);
  if (atomic === undefined || atomic <= 0n || atomic > BigInt(FAUCET_MAX_USDC) * 10n ** BigInt(USDC_DECIMALS)) {
    throw new DomainError("invalid_amount", `must be more than 0 and at most ${FAUCET_MAX_USDC} USDC`, { path: ["amount"] });
  }
  const transaction = await devnet.mint(network, address, atomic);
  const balance = await devnet.balance(network, address);
  return { network, address, minted: amount, transaction, balance: balance.toString() };
}
