import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import {
  SIGN_IN_WITH_X,
  buildSIWxSchema,
  createSIWxMessage,
  createSIWxPayload,
  encodeSIWxHeader,
  type EVMMessageVerifier,
  type SIWxExtension,
  type SIWxPayload,
  type SIWxSigner,
  type SolanaSigner,
} from "@x402/extensions/sign-in-with-x";
import { eq } from "drizzle-orm";
import { getAddress, type PrivateKeyAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { siwxNonces } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver } from "@/test/db";
import { createSiwxChallenge, type SiwxChallengeOptions } from "./siwx-challenge";
import { verifySiwxHeader, type VerifySiwxOptions } from "./verify-siwx";

const ORIGIN = "https://shop.example";
const RESOURCE = `${ORIGIN}/x402/connect`;
const BASE = "eip155:8453";
const SOLANA = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
const MINUTE = 60_000;

let database: Database;
let evm: PrivateKeyAccount;
let sol: SolanaSigner & { address: string };

beforeAll(async () => {
  database = await openTestDatabase();
  evm = privateKeyToAccount(generatePrivateKey());
  sol = asSiwxSigner(await generateKeyPairSigner());
});

/**
 * A @solana/kit 5 KeyPairSigner works with the package's client helper at run time, but its type does not fit:
 * the package declares `signMessages`' `signatures` as Record<string, unknown>, kit requires SignatureBytes values.
 */
const asSiwxSigner = (signer: KeyPairSigner) => signer as unknown as SolanaSigner & { address: string };
afterAll(() => database?.close());

async function challenge(opts: Partial<SiwxChallengeOptions> = {}): Promise<SIWxExtension> {
  const ext = await createSiwxChallenge({ origin: ORIGIN, resourceUrl: RESOURCE, chains: [BASE, SOLANA], ...opts }, database.db);
  return ext[SIGN_IN_WITH_X];
}

/** What an agent does with a 402: pick the chain, sign with the package's client helper, encode the header. */
async function signedPayload(ext: SIWxExtension, chainId: string, signer: SIWxSigner, requestUrl = RESOURCE): Promise<SIWxPayload> {
  const chain = ext.supportedChains.find((c) => c.chainId === chainId);
  if (!chain) throw new Error(`challenge does not offer ${chainId}`);
  return createSIWxPayload({ ...ext.info, chainId: chain.chainId, type: chain.type }, signer, requestUrl);
}
const header = async (...args: Parameters<typeof signedPayload>) => encodeSIWxHeader(await signedPayload(...args));
const encodeJson = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");

const verify = (h: string, opts: Partial<VerifySiwxOptions> = {}) => verifySiwxHeader(h, { origin: ORIGIN, ...opts }, database.db);

async function nonceRow(nonce: string) {
  const [row] = await database.db.select().from(siwxNonces).where(eq(siwxNonces.nonce, nonce));
  return row;
}

describe(`SIWX challenge on ${testDriver}`, () => {
  it("declares the sign-in extension with our nonce, bound to the origin's host and the resource URL", async () => {
    const before = Date.now();
    const ext = await createSiwxChallenge({ origin: ORIGIN, resourceUrl: RESOURCE, chains: [BASE, SOLANA] }, database.db);
    expect(Object.keys(ext)).toEqual([SIGN_IN_WITH_X]);
    const { info, supportedChains, schema } = ext[SIGN_IN_WITH_X];
    expect(info).toMatchObject({ domain: "shop.example", uri: RESOURCE, version: "1", resources: [RESOURCE] });
    expect(info.statement).toMatch(/\S/);
    expect(info.nonce).toMatch(/^[A-Za-z0-9]{16,}$/);
    expect(Date.parse(info.expirationTime!) - Date.parse(info.issuedAt)).toBe(5 * MINUTE);
    expect(Date.parse(info.issuedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(supportedChains).toEqual([
      { chainId: BASE, type: "eip191" },
      { chainId: SOLANA, type: "ed25519" },
    ]);
    expect(schema).toEqual(buildSIWxSchema());
    // Nothing internal leaks into the 402 body.
    expect(JSON.parse(JSON.stringify(ext))[SIGN_IN_WITH_X]).not.toHaveProperty("_options");

    const row = await nonceRow(info.nonce);
    expect(row?.usedAt).toBeNull();
    expect(row?.expiresAt.toISOString()).toBe(info.expirationTime);
  });

  it("gives a new nonce every time", async () => {
    const a = await challenge();
    const b = await challenge();
    expect(a.info.nonce).not.toBe(b.info.nonce);
  });

  it("rebases the resource onto the public origin (a path or an internal host) and keeps the port in the domain", async () => {
    expect((await challenge({ resourceUrl: "/x402/my/orders?start=0" })).info.uri).toBe(`${ORIGIN}/x402/my/orders?start=0`);
    expect((await challenge({ resourceUrl: "http://10.0.0.7:3000/x402/connect" })).info.uri).toBe(RESOURCE);
    const local = await challenge({ origin: "http://localhost:3000", resourceUrl: "/x402/connect" });
    expect(local.info).toMatchObject({ domain: "localhost:3000", uri: "http://localhost:3000/x402/connect" });
  });

  it("refuses a programming error: bad origin, no or unknown chains, a statement SIWE cannot carry", async () => {
    await expect(challenge({ origin: "https://shop.example/x402" })).rejects.toThrow(/origin/);
    await expect(challenge({ origin: "shop.example" })).rejects.toThrow(/origin/);
    await expect(challenge({ chains: [] })).rejects.toThrow(/chain/);
    await expect(challenge({ chains: ["cosmos:cosmoshub-4"] })).rejects.toThrow(/chain/);
    await expect(challenge({ statement: "line one\nline two" })).rejects.toThrow(/statement/);
    await expect(challenge({ statement: 'say "hi"' })).rejects.toThrow(/statement/);
  });
});

describe(`SIWX verification on ${testDriver}`, () => {
  it("accepts an EVM wallet's signature made by the package's client helper and spends the nonce", async () => {
    const ext = await challenge();
    const result = await verify(await header(ext, BASE, evm));
    expect(result).toEqual({ ok: true, wallet: { chainId: BASE, address: evm.address } });
    expect(evm.address).toBe(getAddress(evm.address));
    const row = await nonceRow(ext.info.nonce);
    expect(row?.usedAt).toBeInstanceOf(Date);
    expect(row?.usedBy).toBe(`${BASE}:${evm.address}`);
  });

  it("accepts a Solana wallet (@solana/kit signer) on the same challenge format", async () => {
    const ext = await challenge();
    expect(await verify(await header(ext, SOLANA, sol))).toEqual({ ok: true, wallet: { chainId: SOLANA, address: sol.address } });
    expect((await nonceRow(ext.info.nonce))?.usedBy).toBe(`${SOLANA}:${sol.address}`);
  });

  it("returns the EVM address checksummed even when the client sent it in lowercase", async () => {
    const payload = await signedPayload(await challenge(), BASE, evm);
    const result = await verify(encodeSIWxHeader({ ...payload, address: payload.address.toLowerCase() }));
    expect(result).toEqual({ ok: true, wallet: { chainId: BASE, address: evm.address } });
  });

  it("refuses the same header a second time as a replay", async () => {
    const h = await header(await challenge(), BASE, evm);
    expect((await verify(h)).ok).toBe(true);
    expect(await verify(h)).toMatchObject({ ok: false, code: "replayed" });
  });

  it("checks everything without spending the nonce when asked not to consume it", async () => {
    const ext = await challenge();
    const h = await header(ext, BASE, evm);
    const unspent = async () => (await database.db.select().from(siwxNonces).where(eq(siwxNonces.nonce, ext.info.nonce)))[0]?.usedAt;
    expect(await verify(h, { consume: false })).toEqual({ ok: true, wallet: { chainId: BASE, address: evm.address } });
    expect(await verify(h, { consume: false })).toMatchObject({ ok: true });
    expect(await unspent()).toBeNull();
    // A bad signature is still refused without consuming.
    const other = privateKeyToAccount(generatePrivateKey());
    const forged = encodeSIWxHeader({ ...(await signedPayload(await challenge(), BASE, other)), nonce: ext.info.nonce, address: evm.address });
    expect(await verify(forged, { consume: false })).toMatchObject({ ok: false });
    // Then spent once, and a check afterwards sees the replay.
    expect((await verify(h)).ok).toBe(true);
    expect(await unspent()).toBeInstanceOf(Date);
    expect(await verify(h, { consume: false })).toMatchObject({ ok: false, code: "replayed" });
  });

  it("lets exactly one of two concurrent uses of one header through", async () => {
    const h = await header(await challenge(), SOLANA, sol);
    const results = await Promise.all([verify(h), verify(h), verify(h)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? "" : r.code))).toEqual(["replayed", "replayed"]);
  });

  it("refuses a correctly signed message whose nonce we never issued", async () => {
    const ext = await challenge();
    // The client makes up its own challenge (same origin, fresh times) instead of using ours.
    const forged: SIWxExtension = { ...ext, info: { ...ext.info, nonce: "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6" } };
    expect(await verify(await header(forged, BASE, evm))).toMatchObject({ ok: false, code: "unknown_nonce" });
    const shortNonce: SIWxExtension = { ...ext, info: { ...ext.info, nonce: "x" } };
    expect(await verify(await header(shortNonce, SOLANA, sol))).toMatchObject({ ok: false, code: "unknown_nonce" });
  });

  it("refuses a message older than 5 minutes, and leaves its nonce unused", async () => {
    const ext = await challenge();
    const h = await header(ext, BASE, evm);
    expect(await verify(h, { now: new Date(Date.now() + 6 * MINUTE) })).toMatchObject({ ok: false, code: "expired" });
    expect((await nonceRow(ext.info.nonce))?.usedAt).toBeNull();
  });

  it("refuses the answer to a challenge issued 10 minutes ago", async () => {
    const ext = await challenge({ now: new Date(Date.now() - 10 * MINUTE) });
    expect(await verify(await header(ext, SOLANA, sol))).toMatchObject({ ok: false, code: "expired" });
  });

  it("refuses a nonce whose stored expiry has passed even when the message's own times look fresh", async () => {
    const ext = await challenge();
    await database.db
      .update(siwxNonces)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(siwxNonces.nonce, ext.info.nonce));
    expect(await verify(await header(ext, BASE, evm))).toMatchObject({ ok: false, code: "expired" });
  });

  it("refuses a message signed for another origin", async () => {
    const evil = await challenge({ origin: "https://evil.example", resourceUrl: "https://evil.example/login" });
    const h = await header(evil, BASE, evm, "https://evil.example/login");
    expect(await verify(h)).toMatchObject({ ok: false, code: "wrong_origin" });
    // Same host, other scheme: the URI's origin differs.
    expect(await verify(await header(await challenge(), BASE, evm), { origin: "http://shop.example" })).toMatchObject({
      ok: false,
      code: "wrong_origin",
    });
  });

  it("refuses a message with our domain but a URI on another origin (signed by hand: the client helper would refuse)", async () => {
    const ext = await challenge();
    const info = { ...ext.info, uri: "https://evil.example/x402/connect", chainId: BASE, type: "eip191" as const };
    const signature = await evm.signMessage({ message: createSIWxMessage(info, evm.address) });
    const payload: SIWxPayload = { ...info, address: evm.address, signature };
    expect(await verify(encodeSIWxHeader(payload))).toMatchObject({ ok: false, code: "wrong_origin" });
  });

  it("refuses a tampered signature without burning the nonce, so the genuine header still works", async () => {
    const ext = await challenge();
    const genuine = await signedPayload(ext, BASE, evm);
    const sig = genuine.signature;
    const flipped = sig.slice(0, 20) + (sig[20] === "a" ? "b" : "a") + sig.slice(21);
    expect(await verify(encodeSIWxHeader({ ...genuine, signature: flipped }))).toMatchObject({ ok: false, code: "bad_signature" });
    expect((await nonceRow(ext.info.nonce))?.usedAt).toBeNull();
    expect((await verify(encodeSIWxHeader(genuine))).ok).toBe(true);
  });

  it("refuses a signature presented for another address, or over altered fields", async () => {
    const other = privateKeyToAccount(generatePrivateKey());
    const evmPayload = await signedPayload(await challenge(), BASE, evm);
    expect(await verify(encodeSIWxHeader({ ...evmPayload, address: other.address }))).toMatchObject({ ok: false, code: "bad_signature" });
    expect(await verify(encodeSIWxHeader({ ...evmPayload, statement: "Something else." }))).toMatchObject({ ok: false, code: "bad_signature" });

    const otherSol = asSiwxSigner(await generateKeyPairSigner());
    const solPayload = await signedPayload(await challenge(), SOLANA, sol);
    expect(await verify(encodeSIWxHeader({ ...solPayload, address: otherSol.address }))).toMatchObject({ ok: false, code: "bad_signature" });
    const otherSig = (await signedPayload(await challenge(), SOLANA, sol)).signature;
    expect(await verify(encodeSIWxHeader({ ...solPayload, signature: otherSig }))).toMatchObject({ ok: false, code: "bad_signature" });
    expect((await nonceRow(solPayload.nonce))?.usedAt).toBeNull();
  });

  it("answers malformed for garbage, non-JSON, missing fields and fields SIWE cannot carry", async () => {
    const good = await signedPayload(await challenge(), BASE, evm);
    const unsigned: Partial<SIWxPayload> = { ...good };
    delete unsigned.signature;
    const garbage = [
      "",
      "not base64!!",
      "%%%",
      Buffer.from("not json").toString("base64"),
      encodeJson(null),
      encodeJson([1, 2]),
      encodeJson("a string"),
      encodeJson({ domain: "shop.example" }),
      encodeJson(unsigned),
      encodeJson({ ...good, type: "ed25519" }),
      encodeJson({ ...good, version: "2" }),
      encodeJson({ ...good, issuedAt: "yesterday" }),
      encodeJson({ ...good, signature: "not hex" }),
      encodeJson({ ...good, address: "0x1234" }),
      // A mixed-case address with a wrong checksum (refused before signing work).
      encodeJson({ ...good, address: "0x" + good.address.slice(2, 41) + (good.address[41] === "a" ? "A" : "a") }),
      // A statement the EIP-4361 grammar refuses: the package's SIWE parser throws inside verifySIWxSignature.
      encodeJson({ ...good, statement: "two\nlines" }),
      encodeJson({ ...good, chainId: SOLANA, type: "ed25519", address: "not-base58-0OIl" }),
      "A".repeat(20_000),
    ];
    for (const h of garbage) {
      const result = await verify(h);
      expect(result, h.slice(0, 60)).toMatchObject({ ok: false, code: "malformed" });
    }
    expect((await nonceRow(good.nonce))?.usedAt).toBeNull();
  });

  it("refuses chains it cannot verify, and chains the caller does not accept", async () => {
    const good = await signedPayload(await challenge(), BASE, evm);
    expect(await verify(encodeJson({ ...good, chainId: "cosmos:cosmoshub-4" }))).toMatchObject({ ok: false, code: "unsupported_chain" });
    expect(await verify(encodeSIWxHeader(good), { chains: [SOLANA] })).toMatchObject({ ok: false, code: "unsupported_chain" });
    expect((await verify(encodeSIWxHeader(good), { chains: [BASE] })).ok).toBe(true);
  });

  it("treats one EVM key as one wallet on every EVM chain: a Polygon signature verifies as the same address", async () => {
    const ext = await challenge({ chains: ["eip155:137"] });
    expect(await verify(await header(ext, "eip155:137", evm))).toEqual({ ok: true, wallet: { chainId: "eip155:137", address: evm.address } });
  });

  it("never throws for random headers", async () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";
    for (let i = 0; i < 50; i++) {
      const h = Array.from({ length: 1 + Math.floor(Math.random() * 300) }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join("");
      const result = await verify(h);
      expect(result.ok).toBe(false);
    }
  });
});

// Unit level: a fake EIP-1271 verifier stands in for viem's publicClient.verifyMessage against a deployed
// contract wallet, which needs a chain (covered later with the local anvil chains).
describe(`SIWX smart-wallet path with a FAKE EIP-1271 verifier on ${testDriver}`, () => {
  const contract = getAddress("0x00000000000000000000000000000000c0ffee01");
  const contractSignature = `0x${"5a".repeat(96)}`;

  async function contractHeader(ext: SIWxExtension): Promise<string> {
    const payload: SIWxPayload = {
      ...ext.info,
      chainId: BASE,
      type: "eip191",
      address: contract,
      signature: contractSignature,
    };
    return encodeSIWxHeader(payload);
  }

  it("passes the chain's verifier the contract address, the EIP-4361 text and the signature, and trusts its answer", async () => {
    const ext = await challenge();
    const calls: { chainId: string; args: Parameters<EVMMessageVerifier>[0] }[] = [];
    const evmVerifier =
      (chainId: string): EVMMessageVerifier =>
      async (args) => {
        calls.push({ chainId, args });
        return args.address === contract && args.signature === contractSignature;
      };
    expect(await verify(await contractHeader(ext), { evmVerifier })).toEqual({ ok: true, wallet: { chainId: BASE, address: contract } });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.chainId).toBe(BASE);
    expect(calls[0]?.args.message).toContain("shop.example wants you to sign in with your Ethereum account:");
    expect(calls[0]?.args.message).toContain(`Nonce: ${ext.info.nonce}`);
    expect(calls[0]?.args.message).toContain("Chain ID: 8453");
  });

  it("refuses when the contract says no, and without a verifier (an EOA check cannot accept a contract signature)", async () => {
    const ext = await challenge();
    const h = await contractHeader(ext);
    expect(await verify(h, { evmVerifier: () => async () => false })).toMatchObject({ ok: false, code: "bad_signature" });
    expect(await verify(h)).toMatchObject({ ok: false, code: "bad_signature" });
    expect((await nonceRow(ext.info.nonce))?.usedAt).toBeNull();
  });

  it("reports a verifier that cannot reach its chain as verifier_error and keeps the nonce", async () => {
    const ext = await challenge();
    const down = () => async (): Promise<boolean> => {
      throw new Error("HTTP request failed: connection refused");
    };
    expect(await verify(await contractHeader(ext), { evmVerifier: down })).toMatchObject({ ok: false, code: "verifier_error" });
    expect((await nonceRow(ext.info.nonce))?.usedAt).toBeNull();
  });
});
