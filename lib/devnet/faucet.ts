import { z } from "zod";
import { parseMinorUnits, USDC_DECIMALS } from "@/lib/platform/money";
import { DomainError } from "@/lib/platform/errors";
import type { PaymentNetwork } from "@/lib/platform/networks";
import { FAUCET_MAX_USDC } from "./chains";
import type { Devnet } from "./start-devnet";
import { anvilRpc } from "./evm/rpc";
import type { Hex } from "viem";

/** The most ether one faucet call hands out (EVM networks). */
export const FAUCET_MAX_ETH = 10;

const faucetBody = z.object({
  network: z.string().min(1, "is required"),
  address: z.string().min(1, "is required").max(100),
  amount: z.string().regex(/^\d{1,6}(\.\d{1,6})?$/, `must be a decimal string of USDC (at most ${FAUCET_MAX_USDC}) or ether (at most ${FAUCET_MAX_ETH})`),
  asset: z.enum(["USDC", "ETH"], { error: "must be USDC or ETH" }).optional(),
});

/** A wallet given USDC on an EVM network also gets this much ether for gas when it holds less (plain transfers pay gas). */
const GAS_ETHER = 5n * 10n ** 16n;

/** Adds ether to a wallet on a devnet EVM chain (anvil's balance setter); its new balance. */
async function addEther(rpcUrl: string, address: string, wei: bigint): Promise<bigint> {
  const now = BigInt(await anvilRpc<Hex>(rpcUrl, "eth_getBalance", [address, "latest"]));
  await anvilRpc(rpcUrl, "anvil_setBalance", [address, `0x${(now + wei).toString(16)}`]);
  return now + wei;
}

function validAddress(n: PaymentNetwork, address: string): boolean {
  return n.kind === "evm" ? /^0x[0-9a-fA-F]{40}$/.test(address) : /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address);
}

/**
 * Mints devnet USDC to a wallet: `{network, address, amount}` with amount in USDC (at most 10000); on an EVM network the
 * wallet also gets a little ether for gas if it has less. With `asset: "ETH"` (EVM networks), `amount` ether instead
 * (at most 10), to pay an ether invoice.
 */
export async function faucet(devnet: Devnet, body: unknown) {
  const parsed = faucetBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DomainError("invalid_param", issue?.message ?? "is invalid", { path: issue?.path.map((p) => (typeof p === "number" ? p : String(p))) ?? [] });
  }
  const { network, address, amount, asset = "USDC" } = parsed.data;
  const n = [...devnet.networks, ...devnet.addressNetworks].find((x) => x.network === network);
  if (!n)
    throw new DomainError("unknown_network", `must be one of ${[...devnet.networks, ...devnet.addressNetworks].map((x) => x.network).join(", ")}`, {
      path: ["network"],
    });
  if (!validAddress(n, address))
    throw new DomainError("invalid_address", `is not a ${n.kind === "evm" ? "0x EVM" : "base58 Solana"} address`, { path: ["address"] });
  if (asset === "ETH") {
    if (n.kind !== "evm") throw new DomainError("invalid_param", "ether is given on the EVM networks only", { path: ["asset"] });
    const wei = parseMinorUnits(amount, 18);
    if (wei === undefined || wei <= 0n || wei > BigInt(FAUCET_MAX_ETH) * 10n ** 18n) {
      throw new DomainError("invalid_amount", `must be more than 0 and at most ${FAUCET_MAX_ETH} ether`, { path: ["amount"] });
    }
    const balance = await addEther(n.rpcUrl, address, wei);
    return { network, address, asset, minted: amount, transaction: null, balance: balance.toString() };
  }
  const atomic = parseMinorUnits(amount, USDC_DECIMALS);
  if (atomic === undefined || atomic <= 0n || atomic > BigInt(FAUCET_MAX_USDC) * 10n ** BigInt(USDC_DECIMALS)) {
    throw new DomainError("invalid_amount", `must be more than 0 and at most ${FAUCET_MAX_USDC} USDC`, { path: ["amount"] });
  }
  const transaction = await devnet.mint(network, address, atomic);
  if (n.kind === "evm") {
    const gas = BigInt(await anvilRpc<Hex>(n.rpcUrl, "eth_getBalance", [address, "latest"]));
    if (gas < GAS_ETHER) await addEther(n.rpcUrl, address, GAS_ETHER - gas);
  }
  const balance = await devnet.balance(network, address);
  return { network, address, asset, minted: amount, transaction, balance: balance.toString() };
}
