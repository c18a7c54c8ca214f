import { decodeFunctionResult, encodeFunctionData, type Hex } from "viem";
import { DEV_USDC_ABI } from "./artifacts";
import { anvilRpc } from "./rpc";

type Address = `0x${string}`;

/**
 * The local faucet: an address nobody holds a key for, driven through anvil's impersonation (no well-known dev
 * account is needed). DevUSDC's `mint` is open, so any sender would do.
 */
export const FAUCET_ADDRESS: Address = "0x00000000000000000000000000000000fa0ce700";
const FAUCET_GAS_BALANCE = `0x${(10n ** 18n).toString(16)}`;
const RECEIPT_TIMEOUT_MS = 30_000;

// Mints on one chain go one after another (the faucet's nonces).
const queues = new Map<string, Promise<unknown>>();

/** Mints DevUSDC (atomic units, 6 decimals) to `to` and waits for the receipt; returns the transaction hash. */
export async function mintUsdc(rpcUrl: string, usdc: Address, to: Address, amountAtomic: bigint): Promise<Hex> {
  if (amountAtomic <= 0n) throw new Error("mint amount must be positive");
  // Only the sending is one at a time (the faucet's nonce); the receipts are awaited together, so that mints made at
  // the same moment land in the same block on a chain that mines on an interval.
  const previous = queues.get(rpcUrl) ?? Promise.resolve();
  const sent = previous.catch(() => undefined).then(() => sendMint(rpcUrl, usdc, to, amountAtomic));
  const tail = sent.catch(() => undefined);
  queues.set(rpcUrl, tail);
  void tail.then(() => {
    if (queues.get(rpcUrl) === tail) queues.delete(rpcUrl);
  });
  const hash = await sent;
  const receipt = await waitForReceipt(rpcUrl, hash);
  if (receipt.status !== "0x1") throw new Error(`mint of ${amountAtomic} to ${to} reverted (transaction ${hash})`);
  return hash;
}

async function sendMint(rpcUrl: string, usdc: Address, to: Address, amountAtomic: bigint): Promise<Hex> {
  await anvilRpc(rpcUrl, "anvil_impersonateAccount", [FAUCET_ADDRESS]);
  await anvilRpc(rpcUrl, "anvil_setBalance", [FAUCET_ADDRESS, FAUCET_GAS_BALANCE]);
  const data = encodeFunctionData({ abi: DEV_USDC_ABI, functionName: "mint", args: [to, amountAtomic] });
  return anvilRpc<Hex>(rpcUrl, "eth_sendTransaction", [{ from: FAUCET_ADDRESS, to: usdc, data }]);
}

async function waitForReceipt(rpcUrl: string, hash: Hex): Promise<{ status: Hex }> {
  const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
  for (;;) {
    const receipt = await anvilRpc<{ status: Hex } | null>(rpcUrl, "eth_getTransactionReceipt", [hash]);
    if (receipt) return receipt;
    if (Date.now() > deadline) throw new Error(`no receipt for ${hash} within ${RECEIPT_TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The DevUSDC balance of `owner`, in atomic units. */
export async function usdcBalance(rpcUrl: string, usdc: Address, owner: Address): Promise<bigint> {
  const data = encodeFunctionData({ abi: DEV_USDC_ABI, functionName: "balanceOf", args: [owner] });
  const result = await anvilRpc<Hex>(rpcUrl, "eth_call", [{ to: usdc, data }, "latest"]);
  return decodeFunctionResult({ abi: DEV_USDC_ABI, functionName: "balanceOf", data: result }) as bigint;
}
