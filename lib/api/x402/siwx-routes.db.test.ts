import { generateKeyPairSigner } from "@solana/kit";
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X, type SIWxExtension, type SIWxSigner, type SolanaSigner } from "@x402/extensions/sign-in-with-x";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as connectRoute from "@/app/x402/connect/route";
import * as createRoute from "@/app/x402/invoice/create/route";
import * as statusRoute from "@/app/x402/invoice/status/route";
import * as esimsRoute from "@/app/x402/my/esims/route";
import * as ordersRoute from "@/app/x402/my/orders/route";
import type { Database } from "@/lib/platform/db";
import { invoices, settlements, siwxNonces } from "@/lib/platform/db/schema";
import { processTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { startEvmChain, type EvmDevChain } from "@/lib/devnet/evm";
import { issueSessionToken, walletOwnerKey, type Wallet } from "@/lib/identity";
import type { EvmNetwork, PaymentNetwork } from "@/lib/platform/networks";
import { answerProblems } from "@/test/openapi";
import { bodyCodes, x402Response } from "@/lib/openapi/x402";
import { offlineSolanaNetwork, installInProcessPayments } from "@/test/payments";

// SIGN-IN-WITH-X through the /x402 route handlers, on every route that takes it: a malformed or refused sign-in is a
// 402 with a fresh challenge and the reason (never a 400 or a 401), with or without a session token beside it; the
// 402 of the paid routes that take a sign-in offers the payment and the sign-in together. Signatures are made with
// the official client helpers and checked for real (EVM through viem's verifier on a local anvil chain).

vi.hoisted(() => {
  // Session tokens are signed with this (not a secret generated under the data folder).
  process.env.SESSION_SECRET = "siwx-routes-test-secret-0123456789abcdef";
});

const ORIGIN = "http://shop.test";
const CHAIN_ID = 84_530_402;
const USDC = "0x4020000000000000000000000000000000005dc0" as const;
const CART = { items: [{ product_id: "test-gift-card-code", package_value: "10" }] };

let database: Database;
processTestDatabase((d) => (database = d), withTestCatalog);

let chain: EvmDevChain;
let networks: PaymentNetwork[];
let restorePayments: (() => void) | undefined;

beforeAll(async () => {
  chain = await startEvmChain({ chainId: CHAIN_ID, name: "Base (test chain)", usdcAddress: USDC });
  const evm: EvmNetwork = {
    key: "base",
    kind: "evm",
    network: `eip155:${CHAIN_ID}`,
    chainId: CHAIN_ID,
    name: chain.name,
    rpcUrl: chain.rpcUrl,
    payTo: privateKeyToAccount(generatePrivateKey()).address,
    usdc: chain.usdc,
  };
  // Solana sign-ins are checked without a chain; no Solana payment is made here.
  networks = [evm, await offlineSolanaNetwork("Solana (no chain: sign-in only)")];
  restorePayments = await installInProcessPayments(networks);
}, 60_000);

afterAll(async () => {
  restorePayments?.();
  await chain?.stop();
});

// --- Calling the routes -------------------------------------------------------------------------------------------

type RouteCase = {
  name: string;
  method: "GET" | "POST";
  path: string;
  handler: (req: Request) => Promise<Response>;
  /** Whether the route is paid: its 402 then offers the payment beside the sign-in. */
  paid: boolean;
  query?: string;
  body?: unknown;
};

const ROUTES: RouteCase[] = [
  { name: "connect", method: "POST", path: "/x402/connect", handler: connectRoute.POST, paid: false },
  { name: "my/orders", method: "GET", path: "/x402/my/orders", handler: ordersRoute.GET, paid: false },
  { name: "my/esims", method: "GET", path: "/x402/my/esims", handler: esimsRoute.GET, paid: false },
  { name: "invoice/create", method: "POST", path: "/x402/invoice/create", handler: createRoute.POST, paid: true, body: CART },
  {
    name: "invoice/status",
    method: "GET",
    path: "/x402/invoice/status",
    handler: statusRoute.GET,
    paid: true,
    query: "?invoice_id=inv_0000000000000000000000",
  },
];

type Answer = { status: number; headers: Headers; body: Record<string, unknown> };

/** Calls a route as Next.js would; every answer must be one the OpenAPI document describes (body and headers). */
async function call(route: RouteCase, headers: Record<string, string> = {}, query = route.query ?? ""): Promise<Answer> {
  const body = route.body === undefined ? undefined : JSON.stringify(route.body);
  const req = new Request(`${ORIGIN}${route.path}${query}`, {
    method: route.method,
    headers: { ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
    body,
  });
  const res = await route.handler(req);
  const json = (await res.json()) as Record<string, unknown>;
  expect(answerProblems(x402Response(route.method, route.path, res.status), json, res.headers), `${route.name} ${res.status} as documented`).toEqual([]);
  return { status: res.status, headers: res.headers, body: json };
}

/** The 402's PaymentRequired, read from its header (what x402 clients read); the body mirrors it. */
function required(answer: Answer): PaymentRequired {
  expect(answer.status, JSON.stringify(answer.body)).toBe(402);
  const header = answer.headers.get("payment-required");
  expect(header).toBeTruthy();
  const decoded = decodePaymentRequiredHeader(header!);
  expect(decoded).toEqual(answer.body);
  return decoded;
}

function challengeOf(answer: Answer): SIWxExtension {
  const ext = required(answer).extensions?.[SIGN_IN_WITH_X] as SIWxExtension | undefined;
  if (!ext) throw new Error(`no sign-in-with-x challenge in ${JSON.stringify(answer.body)}`);
  return ext;
}

/** A fresh, unspent nonce of ours: stored, unused, valid about 5 minutes. */
async function expectFreshChallenge(answer: Answer, route: RouteCase, notNonce?: string): Promise<SIWxExtension> {
  const ext = challengeOf(answer);
  expect(ext.info.uri).toBe(`${ORIGIN}${route.path}`);
  expect(ext.info.domain).toBe("shop.test");
  expect(ext.supportedChains.map((c) => c.chainId).sort()).toEqual(networks.map((n) => n.network).sort());
  if (notNonce) expect(ext.info.nonce).not.toBe(notNonce);
  const [row] = await database.db.select().from(siwxNonces).where(eq(siwxNonces.nonce, ext.info.nonce));
  expect(row?.usedAt).toBeNull();
  expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);
  // The paid routes offer the payment too (every network, the route's fee); the wallet routes only the sign-in.
  const accepts = required(answer).accepts;
  if (route.paid) expect(accepts.map((a) => a.network).sort()).toEqual(networks.map((n) => n.network).sort());
  else expect(accepts).toEqual([]);
  return ext;
}

// --- Signing --------------------------------------------------------------------------------------------------------

const evmWallet = () => privateKeyToAccount(generatePrivateKey());
const solanaWallet = async () => (await generateKeyPairSigner()) as unknown as SolanaSigner & { address: string };

/** What an agent does with a challenge: pick a chain of the family, sign with the package's client helper, encode. */
async function signIn(ext: SIWxExtension, signer: SIWxSigner, family: "eip155" | "solana", route: RouteCase, info: Partial<SIWxExtension["info"]> = {}) {
  const chain = ext.supportedChains.find((c) => c.chainId.startsWith(`${family}:`));
  if (!chain) throw new Error(`no ${family} chain offered`);
  // The helper signs only a challenge of the origin it asked (a message for another site comes from that site).
  return createSIWxPayload({ ...ext.info, ...info, chainId: chain.chainId, type: chain.type }, signer, info.uri ?? `${ORIGIN}${route.path}`);
}

const encodeJson = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");

/** A challenge of the route, fresh: what a client asks for before signing. */
const challengeFor = async (route: RouteCase) => challengeOf(await call(route));

/** The ways a SIGN-IN-WITH-X header can be malformed, each with a word of the reason the 402 gives. */
async function malformedHeaders(route: RouteCase): Promise<[string, string, RegExp][]> {
  const signed = await signIn(await challengeFor(route), evmWallet(), "eip155", route);
  return [
    ["not base64", "not base64 !!", /not base64 JSON/],
    ["an empty object", encodeJson({}), /Malformed SIGN-IN-WITH-X header/],
    ["a JSON array", encodeJson([1, 2]), /Malformed SIGN-IN-WITH-X header/],
    ["no signature", encodeJson({ ...signed, signature: undefined }), /Malformed SIGN-IN-WITH-X header/],
    ["a signature that is not hex", encodeJson({ ...signed, signature: "zz" }), /not 0x-prefixed hex/],
    ["a bad issuedAt", encodeJson({ ...signed, issuedAt: "yesterday" }), /issuedAt is not an RFC 3339 timestamp/],
  ];
}

/** Sign-ins that are well formed and refused, each with the refusal code the 402's reason names. */
async function refusedHeaders(route: RouteCase): Promise<[string, string, RegExp][]> {
  const evm = evmWallet();
  const other = evmWallet();
  const sol = await solanaWallet();
  const otherSol = await solanaWallet();
  // Signed by one key for another wallet's address.
  const wrongEvm = await signIn(await challengeFor(route), other, "eip155", route);
  const wrongSol = await signIn(await challengeFor(route), otherSol, "solana", route);
  const wrongSignatureEvm = { ...wrongEvm, address: evm.address };
  const wrongSignatureSol = { ...wrongSol, address: sol.address };
  const old = new Date(Date.now() - 10 * 60_000).toISOString();
  const expired = await signIn(await challengeFor(route), evm, "eip155", route, { issuedAt: old });
  const lapsed = await signIn(await challengeFor(route), evm, "eip155", route, { expirationTime: new Date(Date.now() - 1000).toISOString() });
  const wrongDomain = await signIn(await challengeFor(route), evm, "eip155", route, { domain: "evil.example", uri: `https://evil.example${route.path}` });
  const unknownNonce = await signIn(await challengeFor(route), evm, "eip155", route, { nonce: "a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6" });
  const spent = await signIn(await challengeFor(route), evm, "eip155", route);
  await database.db.update(siwxNonces).set({ usedAt: new Date(), usedBy: "test" }).where(eq(siwxNonces.nonce, spent.nonce));
  return [
    ["an EVM signature by another key", encodeSIWxHeader(wrongSignatureEvm), /^Sign-in refused \(bad_signature\)/],
    ["a Solana signature by another key", encodeSIWxHeader(wrongSignatureSol), /^Sign-in refused \(bad_signature\)/],
    ["a message more than 5 minutes old", encodeSIWxHeader(expired), /^Sign-in refused \(expired\)/],
    ["a message past its expirationTime", encodeSIWxHeader(lapsed), /^Sign-in refused \(expired\)/],
    ["a message for another domain", encodeSIWxHeader(wrongDomain), /^Sign-in refused \(wrong_origin\)/],
    ["a nonce this shop never issued", encodeSIWxHeader(unknownNonce), /^Sign-in refused \(unknown_nonce\)/],
    ["a nonce already used", encodeSIWxHeader(spent), /^Sign-in refused \(replayed\)/],
  ];
}

const tokenOf = async (wallet: Wallet) => (await issueSessionToken(wallet)).token;

// --- The tests --------------------------------------------------------------------------------------------------------

describe(`SIGN-IN-WITH-X on the /x402 routes, on ${testDriver}`, () => {
  for (const route of ROUTES) {
    for (const withToken of [false, true]) {
      const beside = withToken ? " beside a valid session token" : "";

      it(`${route.name}: a malformed SIGN-IN-WITH-X${beside} answers 402 with a fresh challenge and the reason`, async () => {
        const token: Record<string, string> = withToken
          ? { "X-Access-Token": await tokenOf({ chainId: networks[0]!.network, address: evmWallet().address }) }
          : {};
        for (const [what, header, reason] of await malformedHeaders(route)) {
          const answer = await call(route, { "SIGN-IN-WITH-X": header, ...token });
          expect(answer.status, what).toBe(402);
          expect(required(answer).error, what).toMatch(/^Malformed SIGN-IN-WITH-X header: /);
          expect(required(answer).error, what).toMatch(reason);
          await expectFreshChallenge(answer, route);
        }
      });

      it(`${route.name}: a refused SIGN-IN-WITH-X${beside} answers 402 with a fresh challenge and the reason`, async () => {
        const token: Record<string, string> = withToken
          ? { "X-Access-Token": await tokenOf({ chainId: networks[0]!.network, address: evmWallet().address }) }
          : {};
        for (const [what, header, reason] of await refusedHeaders(route)) {
          const sent = JSON.parse(Buffer.from(header, "base64").toString("utf8")) as { nonce: string };
          const answer = await call(route, { "SIGN-IN-WITH-X": header, ...token });
          expect(answer.status, what).toBe(402);
          expect(required(answer).error, what).toMatch(reason);
          await expectFreshChallenge(answer, route, sent.nonce);
        }
      });
    }

    it(`${route.name}: the fresh challenge of a refusal signs in`, async () => {
      const wallet = evmWallet();
      const refused = await call(route, { "SIGN-IN-WITH-X": "not base64 !!" });
      const header = encodeSIWxHeader(await signIn(await expectFreshChallenge(refused, route), wallet, "eip155", route));
      const answer = await call(route, {
        "SIGN-IN-WITH-X": header,
        ...(route.paid ? { "X-Access-Token": await tokenOf({ chainId: networks[0]!.network, address: wallet.address }) } : {}),
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(route.name === "invoice/status" ? 404 : 200);
    });
  }

  it("no status of 400 or 401 is documented for a sign-in on these routes any more", () => {
    for (const route of ROUTES) {
      expect(x402Response(route.method, route.path, 401), route.name).toBeUndefined();
      // A 400's description ends with the codes it may carry.
      expect(x402Response(route.method, route.path, 400)?.description ?? "", route.name).not.toMatch(/SIWX/);
    }
    // The wallet routes answer only 200, 402 and 500 to a sign-in (plus the API's 429 and 503), as the spec says: their
    // only 400 is every route's refusal of a query string that is not valid UTF-8, before any sign-in is read.
    for (const route of ROUTES.filter((r) => r.name === "connect" || r.name === "my/esims")) {
      expect(bodyCodes(x402Response(route.method, route.path, 400)?.body), route.name).toEqual(["INVALID_PARAMETER"]);
    }
  });
});

describe("the 402 of invoice/create and invoice/status offers the payment and a sign-in", () => {
  const create = ROUTES.find((r) => r.name === "invoice/create")!;
  const status = ROUTES.find((r) => r.name === "invoice/status")!;

  for (const route of [create, status]) {
    it(`${route.name}: without payment, sign-in or token: every network's fee, a fresh challenge and the Bazaar metadata`, async () => {
      const first = await call(route);
      expect(required(first).error).toBe("Payment required");
      const ext = await expectFreshChallenge(first, route);
      expect(required(first).accepts.every((a) => a.amount === (route === create ? "2000" : "1000"))).toBe(true);
      expect(required(first).extensions).toHaveProperty("bazaar");
      expect(ext.supportedChains).toEqual(
        expect.arrayContaining([
          { chainId: `eip155:${CHAIN_ID}`, type: "eip191" },
          { chainId: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", type: "ed25519" },
        ]),
      );
      // Each 402 has a challenge of its own.
      await expectFreshChallenge(await call(route), route, ext.info.nonce);
    });

    it(`${route.name}: an expired token gets the payment and a sign-in, with the reason`, async () => {
      const answer = await call(route, { "X-Access-Token": "garbage" });
      expect(required(answer).error).toMatch(/X-Access-Token is invalid or expired/);
      await expectFreshChallenge(answer, route);
    });
  }

  it("invoice/create: a signed-in wallet without payment is asked for the fee, and its signature stays good for the paid retry", async () => {
    const wallet = evmWallet();
    const ext = challengeOf(await call(create));
    const header = encodeSIWxHeader(await signIn(ext, wallet, "eip155", create));
    const unpaid = await call(create, { "SIGN-IN-WITH-X": header });
    expect(required(unpaid).error).toBe("Payment required");
    await expectFreshChallenge(unpaid, create, ext.info.nonce);
    const [row] = await database.db.select().from(siwxNonces).where(eq(siwxNonces.nonce, ext.info.nonce));
    expect(row?.usedAt).toBeNull();

    // The same signature with what covers the fee (here a session token of another wallet): the signed-in wallet pays.
    const someoneElse = { chainId: networks[0]!.network, address: evmWallet().address };
    const created = await call(create, { "SIGN-IN-WITH-X": header, "X-Access-Token": await tokenOf(someoneElse) });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const [invoice] = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, created.body.invoice_id as string));
    expect(invoice?.payer).toBe(walletOwnerKey({ chainId: networks[0]!.network, address: wallet.address }));

    // Spent now: once more is a replay, answered with the payment and a fresh challenge.
    const replay = await call(create, { "SIGN-IN-WITH-X": header, "X-Access-Token": await tokenOf(someoneElse) });
    expect(required(replay).error).toMatch(/^Sign-in refused \(replayed\)/);
    await expectFreshChallenge(replay, create, ext.info.nonce);
  });

  it("invoice/create: a refused sign-in beside a payment answers 402 and the payment is not used", async () => {
    const payer = evmWallet();
    const unpaid = required(await call(create));
    const client = new x402Client()
      .register(`eip155:${CHAIN_ID}`, new ExactEvmScheme(payer))
      .setSpendControls({ allowedAssets: true, maxAmountPerPayment: false });
    const payment = encodePaymentSignatureHeader(
      await client.createPaymentPayload({ ...unpaid, accepts: unpaid.accepts.filter((a) => a.network === `eip155:${CHAIN_ID}`) }),
    );
    const before = (await database.db.select().from(settlements)).length;
    for (const header of [
      "not base64 !!",
      encodeSIWxHeader(await signIn(challengeOf(await call(create)), evmWallet(), "eip155", create, { nonce: "ffffffffffffffffffffffffffffffff" })),
    ]) {
      const answer = await call(create, { "PAYMENT-SIGNATURE": payment, "SIGN-IN-WITH-X": header });
      expect(required(answer).error).toMatch(/^(Malformed SIGN-IN-WITH-X header|Sign-in refused \(unknown_nonce\))/);
      await expectFreshChallenge(answer, create);
      expect(answer.headers.get("payment-response")).toBeNull();
    }
    expect((await database.db.select().from(settlements)).length).toBe(before);
  });

  it("invoice/status: a sign-in of the paying wallet waives the fee and proves the wallet; another wallet's is 403", async () => {
    const wallet = evmWallet();
    const token = await tokenOf({ chainId: networks[0]!.network, address: wallet.address });
    const created = await call(create, { "X-Access-Token": token });
    expect(created.status).toBe(200);
    const query = `?invoice_id=${created.body.invoice_id as string}`;
    const signed = async (signer: SIWxSigner) => encodeSIWxHeader(await signIn(challengeOf(await call(status, {}, query)), signer, "eip155", status));

    const own = await call(status, { "SIGN-IN-WITH-X": await signed(wallet) }, query);
    expect(own.status).toBe(200);
    expect(own.headers.get("payment-response")).toBeNull();
    expect(own.body).toMatchObject({ invoice_id: created.body.invoice_id, status: "unpaid" });
    // The sign-in is who the caller is, whoever's token comes with it.
    const other = await call(status, { "SIGN-IN-WITH-X": await signed(evmWallet()), "X-Access-Token": token }, query);
    expect([other.status, other.body.code]).toEqual([403, "NOT_THE_PAYER"]);
  });
});
