import { encodeFunctionData, parseAbi, parseGwei, type Address, type Hash, type Hex, type LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { anvilRpc } from "@/lib/devnet/evm/rpc";
import { chainControl } from "./chain-control";

/**
 * A payer racing the shop with its own authorization (test support). EIP-3009 nonces are unique per payer, not per
 * authorization: the payer signs a second one on the same nonce (to itself, of value 0 by default) and has it sent
 * with a higher tip, so that it is mined ahead of the shop's transfer, which then reverts ("authorization is used").
 */

const TRANSFER_WITH_AUTHORIZATION = parseAbi([
  "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)",
]);

export type Token = { address: Address; name: string; version: string };

/** Signs an EIP-3009 `TransferWithAuthorization` of `payer` on `nonce`. */
export async function signAuthorization(
  payer: LocalAccount,
  chainId: number,
  token: Token,
  a: { to: Address; value: bigint; nonce: Hex; validAfter?: bigint; validBefore?: bigint },
): Promise<{ validAfter: bigint; validBefore: bigint; signature: Hex }> {
  const validAfter = a.validAfter ?? 0n;
  const validBefore = a.validBefore ?? BigInt(Math.floor(Date.now() / 1000) + 600);
  const signature = await payer.signTypedData!({
    domain: { name: token.name, version: token.version, chainId, verifyingContract: token.address },
    types: {
      TransferWithAuthorization: [
        { name: "from", type: "address" },
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "validAfter", type: "uint256" },
        { name: "validBefore", type: "uint256" },
        { name: "nonce", type: "bytes32" },
      ],
    },
    primaryType: "TransferWithAuthorization",
    message: { from: payer.address, to: a.to, value: a.value, validAfter, validBefore, nonce: a.nonce },
  });
  return { validAfter, validBefore, signature };
}

export type Spend = { rpcUrl: string; chainId: number; token: Token; payer: LocalAccount; nonce: Hex; to?: Address; value?: bigint; tipGwei?: string };

/**
 * The signed transaction that spends `nonce` of `payer` with another authorization (to `to`, the payer itself by
 * default, of `value`, 0 by default), from a fresh account given gas (anvil_setBalance) at a tip far above the shop's,
 * so that a block holding both puts it first. Not sent: `spendNonceFirst` sends it, a reorg may place it in a block.
 */
export async function signedNonceSpend(opts: Spend): Promise<`0x${string}`> {
  const { rpcUrl, chainId, token, payer, nonce } = opts;
  const to = opts.to ?? payer.address;
  const value = opts.value ?? 0n;
  const signed = await signAuthorization(payer, chainId, token, { to, value, nonce });
  const sender = privateKeyToAccount(generatePrivateKey());
  await anvilRpc(rpcUrl, "anvil_setBalance", [sender.address, "0x56BC75E2D63100000"]);
  const tip = parseGwei(opts.tipGwei ?? "500");
  return sender.signTransaction({
    chainId,
    type: "eip1559",
    to: token.address,
    data: encodeFunctionData({
      abi: TRANSFER_WITH_AUTHORIZATION,
      functionName: "transferWithAuthorization",
      args: [payer.address, to, value, signed.validAfter, signed.validBefore, nonce, signed.signature],
    }),
    gas: 200_000n,
    maxPriorityFeePerGas: tip,
    maxFeePerGas: tip * 2n,
    nonce: 0,
  });
}

/** Sends `signedNonceSpend`'s transaction: it waits in the pool like any other, ahead of the shop's. Returns its hash. */
export async function spendNonceFirst(opts: Spend): Promise<Hash> {
  return anvilRpc<Hash>(opts.rpcUrl, "eth_sendRawTransaction", [await signedNonceSpend(opts)]);
}

/**
 * Races a payment with the payer's own spend of its nonce: mining paused, `pay` starts the payment, and once the shop's
 * transfer waits in the pool, the payer's other authorization on the same nonce joins it at a higher tip; one block
 * then holds both, the payer's first (the shop's reverts). Mining resumes (a block a second) however it ends. Returns
 * what `pay` answered.
 */
export async function frontRun<T>(spend: Spend, pay: () => Promise<T>): Promise<T> {
  const chain = chainControl(spend.rpcUrl);
  await chain.pauseMining();
  try {
    const paying = pay();
    await chain.waitForPool(1);
    await spendNonceFirst(spend);
    await chain.waitForPool(2);
    await chain.mine();
    await chain.resumeMining();
    return await paying;
  } finally {
    await chain.resumeMining();
  }
}
