import { SIGN_IN_WITH_X, createSIWxPayload, encodeSIWxHeader, type EVMSigner, type SIWxExtension } from "@x402/extensions/sign-in-with-x";
import { eq } from "drizzle-orm";
import { createPublicClient, defineChain, getAddress, http, pad, toHex, type PrivateKeyAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { siwxNonces } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver } from "@/test/db";
import { startEvmChain, type EvmDevChain } from "@/lib/devnet/evm";
import { TEST_SMART_WALLET_ABI, TEST_SMART_WALLET_OWNER_SLOT, TEST_SMART_WALLET_RUNTIME_CODE } from "@/lib/devnet/evm/artifacts";
import { anvilRpc } from "@/lib/devnet/evm/rpc";
import { createSiwxChallenge } from "./siwx-challenge";
import { verifySiwxHeader, type VerifySiwxOptions } from "./verify-siwx";

// Sign-in with a smart-contract wallet checked for real: viem's publicClient.verifyMessage (the app's evmVerifier)
// asks a TestSmartWallet on a local anvil chain, through EIP-1271 isValidSignature.

const CHAIN_ID = 84_530_402;
const CAIP2 = `eip155:${CHAIN_ID}`;
const USDC = "0x4020000000000000000000000000000000005dc0" as const;
const ORIGIN = "https://shop.example";
const RESOURCE = `${ORIGIN}/x402/connect`;
// Written in lowercase on purpose: the verified wallet must come back EIP-55 checksummed.
const WALLET = "0x00000000000000000000000000000000c0ffee12";

let database: Database;
let chain: EvmDevChain;
let publicClient: ReturnType<typeof createPublicClient>;
let owner: PrivateKeyAccount;

beforeAll(async () => {
  [database, chain] = await Promise.all([openTestDatabase(), startEvmChain({ chainId: CHAIN_ID, name: "Base (devnet)", usdcAddress: USDC })]);
  const viemChain = defineChain({
    id: chain.chainId,
    name: chain.name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
  publicClient = createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl) });
  owner = privateKeyToAccount(generatePrivateKey());
  await anvilRpc(chain.rpcUrl, "anvil_setCode", [WALLET, TEST_SMART_WALLET_RUNTIME_CODE]);
  await anvilRpc(chain.rpcUrl, "anvil_setStorageAt", [WALLET, toHex(TEST_SMART_WALLET_OWNER_SLOT), pad(owner.address)]);
});

afterAll(async () => {
  await Promise.all([chain?.stop(), database?.close()]);
});

const evmVerifier: VerifySiwxOptions["evmVerifier"] = (id) => (id === CAIP2 ? publicClient.verifyMessage : undefined);

const verify = (h: string, opts: Partial<VerifySiwxOptions> = {}) => verifySiwxHeader(h, { origin: ORIGIN, ...opts }, database.db);

async function challenge(): Promise<SIWxExtension> {
  const ext = await createSiwxChallenge({ origin: ORIGIN, resourceUrl: RESOURCE, chains: [CAIP2] }, database.db);
  return ext[SIGN_IN_WITH_X];
}

/** The contract wallet's address, signing with the given key (its owner's, or not). */
const contractSigner = (key: PrivateKeyAccount): EVMSigner => ({
  address: WALLET,
  signMessage: ({ message }) => key.signMessage({ message }),
});

async function header(ext: SIWxExtension, signer: EVMSigner): Promise<string> {
  const offered = ext.supportedChains.find((c) => c.chainId === CAIP2);
  if (!offered) throw new Error(`challenge does not offer ${CAIP2}`);
  return encodeSIWxHeader(await createSIWxPayload({ ...ext.info, chainId: offered.chainId, type: offered.type }, signer, RESOURCE));
}

async function nonceRow(nonce: string) {
  const [row] = await database.db.select().from(siwxNonces).where(eq(siwxNonces.nonce, nonce));
  return row;
}

describe(`SIWX with an EIP-1271 contract wallet on a local anvil chain (${testDriver})`, () => {
  it("has the test wallet in place with its owner in slot 0", async () => {
    expect(await publicClient.getCode({ address: WALLET })).toBe(TEST_SMART_WALLET_RUNTIME_CODE);
    expect(await publicClient.readContract({ address: WALLET, abi: TEST_SMART_WALLET_ABI, functionName: "owner" })).toBe(owner.address);
  });

  it("accepts the owner's signature for the contract through publicClient.verifyMessage and returns the contract as the wallet", async () => {
    const ext = await challenge();
    const h = await header(ext, contractSigner(owner));
    const result = await verify(h, { evmVerifier });
    expect(result).toEqual({ ok: true, wallet: { chainId: CAIP2, address: getAddress(WALLET) } });
    expect(getAddress(WALLET)).not.toBe(WALLET);
    expect((await nonceRow(ext.info.nonce))?.usedBy).toBe(`${CAIP2}:${getAddress(WALLET)}`);
  });

  it("refuses a signature by another key for the same contract, and keeps the nonce", async () => {
    const ext = await challenge();
    const stranger = privateKeyToAccount(generatePrivateKey());
    expect(await verify(await header(ext, contractSigner(stranger)), { evmVerifier })).toMatchObject({ ok: false, code: "bad_signature" });
    expect((await nonceRow(ext.info.nonce))?.usedAt).toBeNull();
  });

  it("refuses the contract wallet without an evmVerifier (EOA-only check), then accepts the same header with one", async () => {
    const ext = await challenge();
    const h = await header(ext, contractSigner(owner));
    expect(await verify(h)).toMatchObject({ ok: false, code: "bad_signature" });
    // The verifier is only asked for its own chain; another chain id gets none.
    expect(await verify(h, { evmVerifier: (id) => (id === "eip155:8453" ? publicClient.verifyMessage : undefined) })).toMatchObject({
      ok: false,
      code: "bad_signature",
    });
    expect((await nonceRow(ext.info.nonce))?.usedAt).toBeNull();
    expect(await verify(h, { evmVerifier })).toEqual({ ok: true, wallet: { chainId: CAIP2, address: getAddress(WALLET) } });
  });
});
