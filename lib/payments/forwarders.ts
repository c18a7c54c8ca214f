import {
  concatHex,
  createPublicClient,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  http,
  keccak256,
  stringToHex,
  zeroAddress,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";
import artifacts from "@/lib/payments/contracts/artifacts.json";
import type { EvmNetwork } from "@/lib/platform/networks";
import { viemChain } from "./chain";
import { rpcFetch } from "./rpc-fetch";

// Compiled by scripts/compile-contracts.ts from lib/payments/contracts/Forwarder.sol (committed; never compiled at run time).
export const FORWARDER_ABI = artifacts.Forwarder.abi as Abi;
export const FORWARDER_FACTORY_ABI = artifacts.ForwarderFactory.abi as Abi;
const FORWARDER_CREATION_CODE = artifacts.Forwarder.bytecode as Hex;
const FACTORY_CREATION_CODE = artifacts.ForwarderFactory.bytecode as Hex;
const FACTORY_RUNTIME_CODE = artifacts.ForwarderFactory.deployedBytecode as Hex;

/**
 * The deterministic deployment proxy (a CREATE2 deployer at the same address on Ethereum, Base, Arbitrum, Polygon, their
 * testnets and anvil): called with `salt ++ creation code`, it deploys the code at an address that depends on nothing
 * else. The factory is deployed through it, so it sits at one address on every network.
 */
export const CREATE2_DEPLOYER: Address = "0x4e59b44847b379578588920cA78FbF26c0B4956C";
const FACTORY_SALT: Hex = keccak256(stringToHex("x402-storefront forwarder factory v1"));

/** Where the forwarder factory is (or will be) on every EVM network. */
export const FORWARDER_FACTORY: Address = getContractAddress({
  opcode: "CREATE2",
  from: CREATE2_DEPLOYER,
  salt: FACTORY_SALT,
  bytecode: FACTORY_CREATION_CODE,
});

/** The asset a forwarder is read and flushed for: ether, or a token's contract. */
export type ForwarderAsset = "native" | Address;
const assetArg = (asset: ForwarderAsset): Address => (asset === "native" ? zeroAddress : asset);

/** The salt of an invoice's forwarder: its id, hashed (an invoice id is never reused, so neither is its address). */
export function invoiceSalt(invoiceId: string): Hex {
  return keccak256(stringToHex(`x402-storefront invoice ${invoiceId}`));
}

/** The address of the forwarder to `payTo` under `salt` (the same as the factory's `forwarderAddress`). */
export function forwarderAddress(payTo: Address, salt: Hex, factory: Address = FORWARDER_FACTORY): Address {
  const bytecode = concatHex([FORWARDER_CREATION_CODE, encodeAbiParameters([{ type: "address" }], [payTo])]);
  return getContractAddress({ opcode: "CREATE2", from: factory, salt, bytecode });
}

/** What a forwarder holds of an asset and what it has flushed to payTo: their sum is what it received. */
export type Holding = { held: bigint; flushed: bigint };

/** Addresses read in one call: the factory's loop costs about 10,000 gas each, well under a node's call gas cap. */
export const HOLDINGS_PER_CALL = 500;

/**
 * What each forwarder holds and has flushed of `asset` at `blockNumber`, read through the factory's `holdings` view,
 * HOLDINGS_PER_CALL addresses per call. The factory's code is given to the call as a state override, so the read
 * works the same before the factory is deployed on a network (or at a block before it was).
 */
export async function readHoldings(client: PublicClient, forwarders: readonly Address[], asset: ForwarderAsset, blockNumber: bigint): Promise<Holding[]> {
  const [at] = await readHoldingsAt(client, forwarders, asset, [blockNumber]);
  return at!;
}

/** readHoldings at several blocks (the head and the depth of one round): each call's data encoded once. */
export async function readHoldingsAt(
  client: PublicClient,
  forwarders: readonly Address[],
  asset: ForwarderAsset,
  blockNumbers: readonly bigint[],
): Promise<Holding[][]> {
  const chunks: Address[][] = [];
  for (let i = 0; i < forwarders.length; i += HOLDINGS_PER_CALL) chunks.push(forwarders.slice(i, i + HOLDINGS_PER_CALL));
  // Lowercase: viem checks a checksummed address's checksum (a keccak each), and its cache of checked addresses
  // holds fewer than a large watch list.
  const calls = chunks.map((chunk) => ({
    size: chunk.length,
    data: encodeFunctionData({
      abi: FORWARDER_FACTORY_ABI,
      functionName: "holdings",
      args: [chunk.map((a) => a.toLowerCase() as Address), assetArg(asset).toLowerCase()],
    }),
  }));
  return Promise.all(
    blockNumbers.map(async (blockNumber) => {
      const answers = await Promise.all(
        calls.map(async ({ size, data }) => {
          const { data: out } = await client.call({
            to: FORWARDER_FACTORY,
            data,
            blockNumber,
            stateOverride: [{ address: FORWARDER_FACTORY, code: FACTORY_RUNTIME_CODE }],
          });
          if (!out) throw new Error("the node answered the forwarders' holdings with nothing");
          const [held, flushed] = decodeFunctionResult({ abi: FORWARDER_FACTORY_ABI, functionName: "holdings", data: out }) as [
            readonly bigint[],
            readonly bigint[],
          ];
          if (held.length !== size || flushed.length !== size) throw new Error("the node answered the forwarders' holdings for other addresses");
          return held.map((h, i) => ({ held: h, flushed: flushed[i]! }));
        }),
      );
      return answers.flat();
    }),
  );
}

/** The call that moves all a forwarder holds of `assets` to payTo, deploying it first if it is not there yet. */
export function flushCall(payTo: Address, salt: Hex, assets: readonly ForwarderAsset[]): { to: Address; data: Hex } {
  return {
    to: FORWARDER_FACTORY,
    data: encodeFunctionData({ abi: FORWARDER_FACTORY_ABI, functionName: "flush", args: [payTo, salt, assets.map(assetArg)] }),
  };
}

/** The call that deploys the factory through the CREATE2 deployer (once per network; anyone may send it). */
export function factoryDeployCall(): { to: Address; data: Hex } {
  return { to: CREATE2_DEPLOYER, data: concatHex([FACTORY_SALT, FACTORY_CREATION_CODE]) };
}

/** A read client of one network's node (the same kept-alive transport as settlements). */
export function readClient(n: EvmNetwork): PublicClient {
  return createPublicClient({ chain: viemChain(n), transport: http(n.rpcUrl, { fetchFn: rpcFetch, retryCount: 1 }) }) as PublicClient;
}

/** Addresses as stored: checksummed. */
export const storedAddress = (a: string): Address => getAddress(a);
