import { generateKeyPairSigner } from "@solana/kit";
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { createSIWxPayload, encodeSIWxHeader, SIGN_IN_WITH_X, type SIWxExtension, type SolanaSigner } from "@x402/extensions/sign-in-with-x";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as createMerchantInvoice } from "@/app/api/v2/invoices/route";
import { GET as openApiDocument } from "@/app/x402/openapi.json/route";
import { catalogChanged, getProduct } from "@/lib/catalog";
import type { Database } from "@/lib/platform/db";
import { affiliates, invoices, paidAnswers, products } from "@/lib/platform/db/schema";
import { processTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { bearerAuth, callRoute } from "@/test/merchant-api";
import { MAX_BODY_BYTES } from "@/lib/platform/http/edge-guard";
import { PEER_HEADER, installPeerAddress } from "@/lib/platform/http/peer-address";
import { issueSessionToken, type Wallet } from "@/lib/identity";
import { importStock } from "@/lib/catalog/stock";
import { MAX_ITEMS } from "@/lib/api/x402/cart";
import { createMerchant } from "@/lib/merchants";
import type { EvmNetwork, PaymentNetwork } from "@/lib/platform/networks";
import { answerProblems } from "@/test/openapi";
import { documentedX402Answers, x402Response } from "@/lib/openapi/x402";
import { getPayments } from "@/lib/payments/payments";
import { verdictClient } from "@/lib/payments/verdict";
import { captureLog } from "@/test/log";
import { offlineSolanaNetwork, installInProcessPayments } from "@/test/payments";
import { getRateLimiter, X402_LIMITS } from "@/lib/platform/ratelimit";
import { X402_HANDLERS } from "./handlers";
import { X402_ROUTES, type X402RouteId } from "@/lib/api/x402/x402-routes";
import { batchCards, createBatch, issueBatch } from "@/lib/merchants/gift-card-batches";
import { syncFxSource } from "@/lib/catalog/fx-store";
import { setFxSource, shippedFxSource, tableFxSource } from "@/lib/catalog/fx";

// Every answer the /x402 API's OpenAPI document lists, provoked through the route handlers: each route's success, each
// status and error code of each route, and the common 429, 500 and 503 on every route that can give them. Each answer
// is checked against its documented body and headers; the last test checks that nothing listed went untried, but
// the answers only a chain gives (tried in their own tests, named there) and those no route can give.
// No chain runs here: the networks' RPCs answer nothing, and no payment is settled.

const { settlements } = vi.hoisted(() => {
  // Session tokens are signed with this (not a secret generated under the data folder).
  process.env.SESSION_SECRET = "x402-answers-test-secret-0123456789abcdef";
  return { settlements: { accepted: true } };
});

// The server stopping (lib/platform/runtime/shutdown.ts) stops taking settlements: the 503 test switches this off and on again.
vi.mock("@/lib/payments/in-flight", async (actual) => ({
  ...(await actual<typeof import("@/lib/payments/in-flight")>()),
  acceptingSettlements: () => settlements.accepted,
}));
// The next file of this worker gets the module itself (vitest.setup.ts loads the project's modules anew for it).
afterAll(() => vi.doUnmock("@/lib/payments/in-flight"));

const ORIGIN = "http://shop.test";
const CHAIN_ID = 84_530_999;

let database: Database;
processTestDatabase((d) => (database = d), withTestCatalog);

let networks: PaymentNetwork[];
let evm: EvmNetwork;
let restorePayments: (() => void) | undefined;

beforeAll(async () => {
  evm = {
    key: "base",
    kind: "evm",
    network: `eip155:${CHAIN_ID}`,
    chainId: CHAIN_ID,
    name: "Base (no chain)",
    rpcUrl: "http://127.0.0.1:9",
    payTo: privateKeyToAccount(generatePrivateKey()).address,
    usdc: { address: "0x4020000000000000000000000000000000005dc0", name: "USD Coin", version: "2", decimals: 6 },
  };
  networks = [evm, await offlineSolanaNetwork("Solana (no chain)")];
  restorePayments = await installInProcessPayments(networks);
  // The client's address comes from the socket (here: PEER_HEADER, as the server writes it); without it, a request
  // is this machine's and no address budget counts it.
  installPeerAddress();
});

afterAll(() => restorePayments?.());

// --- Calling the routes -------------------------------------------------------------------------------------------

type Call = { query?: string; body?: unknown; headers?: Record<string, string> };
type Answer = { status: number; headers: Headers; body: Record<string, unknown> };

const seen = new Set<string>();

/**
 * Calls a route's handler as Next.js would; fails unless the answer is one the OpenAPI document describes (body and
 * headers), and records it as `METHOD path status [CODE]`.
 */
async function call(id: X402RouteId, { query = "", body, headers = {} }: Call = {}): Promise<Answer> {
  const { method, path } = X402_ROUTES[id];
  const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  const req = new Request(`${ORIGIN}${path}${query}`, {
    method,
    headers: { ...(text === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
    body: text,
  });
  const res = await X402_HANDLERS[id](req);
  const json = (await res.json()) as Record<string, unknown>;
  expect(answerProblems(x402Response(method, path, res.status), json, res.headers), `${method} ${path}${query} ${res.status} as documented`).toEqual([]);
  seen.add(`${method} ${path} ${res.status}`);
  if (typeof json.code === "string") seen.add(`${method} ${path} ${res.status} ${json.code}`);
  return { status: res.status, headers: res.headers, body: json };
}

/** Calls a route and checks the status and (for an error) the code it answered. */
async function expectAnswer(id: X402RouteId, expected: number | `${number} ${string}`, c: Call = {}): Promise<Answer> {
  const answer = await call(id, c);
  const got = typeof answer.body.code === "string" ? `${answer.status} ${answer.body.code}` : `${answer.status}`;
  expect(got, `${id}${c.query ?? ""} ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(String(expected));
  return answer;
}

/** A fresh wallet and a session token for it (what POST /x402/connect gives). */
async function signedIn(): Promise<{ wallet: Wallet; token: Record<string, string> }> {
  const wallet = { chainId: evm.network, address: privateKeyToAccount(generatePrivateKey()).address };
  return { wallet, token: { "X-Access-Token": (await issueSessionToken(wallet)).token } };
}

/** The 402's payment requirements, as x402 clients read them: from PAYMENT-REQUIRED (the body mirrors it). */
function requiredOf(answer: Answer): PaymentRequired {
  expect(answer.status, JSON.stringify(answer.body)).toBe(402);
  const decoded = decodePaymentRequiredHeader(answer.headers.get("payment-required")!);
  expect(decoded).toEqual(answer.body);
  return decoded;
}

/** A payment signed by a fresh EVM wallet for the EVM requirement of a 402 (signing needs no chain). */
async function signedPayment(required: PaymentRequired): Promise<string> {
  const client = new x402Client()
    .register(evm.network, new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())))
    .setSpendControls({ allowedAssets: true, maxAmountPerPayment: false });
  return encodePaymentSignatureHeader(await client.createPaymentPayload({ ...required, accepts: required.accepts.filter((a) => a.network === evm.network) }));
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");

/** Every route with a fixed fee, with a query or body its checks accept. */
const FEE_CALLS: [X402RouteId, Call][] = [
  ["checkoutInfo", {}],
  ["giftCardSearch", { query: "?q=steam" }],
  ["esimSearch", { query: "?q=test" }],
  ["topupSearch", { query: "?country=US" }],
  ["productDetail", { query: "?slug=test-gift-card-code" }],
  ["invoiceCreate", { body: { items: [{ product_id: "test-gift-card-code", package_value: "10" }] } }],
  ["invoiceStatus", { query: "?invoice_id=inv_0000000000000000000000" }],
];
/** The routes without a fee: a sign-in or a session token is what they ask for. */
const WALLET_CALLS: [X402RouteId, Call][] = [
  ["connect", {}],
  ["myOrders", {}],
  ["myEsims", {}],
];

const CART = { items: [{ product_id: "test-gift-card-code", package_value: "10" }] };

/** A new unpaid invoice of a signed-in wallet, with that wallet's token. */
async function newInvoice(): Promise<{ id: string; token: Record<string, string>; wallet: Wallet }> {
  const { wallet, token } = await signedIn();
  const created = await expectAnswer("invoiceCreate", 200, { body: CART, headers: token });
  return { id: created.body.invoice_id as string, token, wallet };
}

const payBody = (invoiceId: string) => ({ invoice_id: invoiceId });

// --- The tests --------------------------------------------------------------------------------------------------------

describe(`every documented answer of the /x402 API, on ${testDriver}`, () => {
  it("answers each route's success: paid routes with a session token, the wallet routes signed in, the document free", async () => {
    const { token } = await signedIn();
    await expectAnswer("checkoutInfo", 200, { headers: token });
    await expectAnswer("giftCardSearch", 200, { query: "?q=steam", headers: token });
    await expectAnswer("esimSearch", 200, { query: "?q=test", headers: token });
    await expectAnswer("topupSearch", 200, { headers: token });
    await expectAnswer("productDetail", 200, { query: "?slug=test-gift-card-code", headers: token });
    const created = await expectAnswer("invoiceCreate", 200, { body: CART, headers: token });
    await expectAnswer("invoiceStatus", 200, { query: `?invoice_id=${created.body.invoice_id as string}`, headers: token });
    const orders = await expectAnswer("myOrders", 200, { query: "?start=0&limit=1", headers: token });
    expect(orders.body).toMatchObject({ start: 0, limit: 1, total: 1 });
    // A page of 50 from the first, unless asked otherwise.
    expect((await expectAnswer("myOrders", 200, { headers: token })).body).toMatchObject({ start: 0, limit: 50, total: 1 });
    await expectAnswer("myEsims", 200, { headers: token });

    // POST /x402/connect: the 402's challenge, signed by a Solana wallet (checked without a chain), is a session token.
    const challenge = requiredOf(await expectAnswer("connect", 402)).extensions?.[SIGN_IN_WITH_X] as SIWxExtension;
    const chain = challenge.supportedChains.find((c) => c.chainId.startsWith("solana:"))!;
    const signer = (await generateKeyPairSigner()) as unknown as SolanaSigner;
    const signature = await createSIWxPayload({ ...challenge.info, chainId: chain.chainId, type: chain.type }, signer, `${ORIGIN}/x402/connect`);
    const session = await expectAnswer("connect", 200, { headers: { "SIGN-IN-WITH-X": encodeSIWxHeader(signature) } });
    expect(session.body).toMatchObject({ token_header: "X-Access-Token", next_step: { url: `${ORIGIN}/x402/my/orders` } });
    await expectAnswer("myOrders", 200, { headers: { "X-Access-Token": session.body.token as string } });

    const res = await openApiDocument(new Request(`${ORIGIN}/x402/openapi.json`));
    expect(answerProblems(x402Response("GET", "/x402/openapi.json", res.status), await res.json())).toEqual([]);
    seen.add(`GET /x402/openapi.json ${res.status}`);
  });

  it("records a known X-Service-Affiliate-Id on the invoice and ignores an unknown or malformed one", async () => {
    await database.db.insert(affiliates).values({ id: "Answers42", name: "Answers" }).onConflictDoNothing();
    const { token } = await signedIn();
    const affiliateOf = async (code: string) => {
      const created = await expectAnswer("invoiceCreate", 200, { body: CART, headers: { ...token, "X-Service-Affiliate-Id": code } });
      const [row] = await database.db
        .select()
        .from(invoices)
        .where(eq(invoices.id, created.body.invoice_id as string));
      return row?.affiliateId ?? null;
    };
    expect(await affiliateOf("Answers42")).toBe("Answers42");
    expect(await affiliateOf("answers42")).toBeNull();
    expect(await affiliateOf("x'; drop")).toBeNull();
  });

  it("asks for each route's fee on every network (402, PAYMENT-REQUIRED), a sign-in on the wallet routes, the locked price on pay", async () => {
    for (const [id, c] of FEE_CALLS) {
      const required = requiredOf(await expectAnswer(id, 402, c));
      expect(required.accepts.map((a) => a.network).sort(), id).toEqual(networks.map((n) => n.network).sort());
      expect(new Set(required.accepts.map((a) => a.amount)), id).toEqual(new Set([String(X402_ROUTES[id].fee)]));
    }
    for (const [id, c] of WALLET_CALLS) {
      const required = requiredOf(await expectAnswer(id, 402, c));
      expect(required.accepts, id).toEqual([]);
      expect(required.extensions, id).toHaveProperty(SIGN_IN_WITH_X);
    }
    const { id } = await newInvoice();
    const [invoice] = await database.db.select().from(invoices).where(eq(invoices.id, id));
    const required = requiredOf(await expectAnswer("invoicePay", 402, { body: payBody(id) }));
    expect(new Set(required.accepts.map((a) => a.amount))).toEqual(new Set([invoice!.priceUsdc.toString()]));
  });

  it("refuses bad parameters and bodies with their documented 400 codes, before any payment", async () => {
    for (const id of ["giftCardSearch", "esimSearch", "topupSearch"] as const) await expectAnswer(id, "400 INVALID_PARAMETER", { query: "?country=Germany" });
    await expectAnswer("productDetail", "400 MISSING_FIELD");
    await expectAnswer("productDetail", "400 INVALID_PARAMETER", { query: "?slug=e&iccid=12" });
    await expectAnswer("invoiceCreate", "400 INVALID_JSON", { body: "{items:" });
    await expectAnswer("invoiceCreate", "400 MISSING_FIELD", { body: {} });
    await expectAnswer("invoiceCreate", "400 INVALID_PARAMETER", { body: { items: [] } });
    await expectAnswer("invoiceCreate", "400 INVALID_PARAMETER", { body: { items: [{ ...CART.items[0], refill_input: "x".repeat(101) }] } });
    await expectAnswer("invoiceCreate", "400 TOO_MANY_ITEMS", { body: { items: Array.from({ length: MAX_ITEMS + 1 }, () => CART.items[0]) } });
    await expectAnswer("invoiceCreate", 402, { body: { items: Array.from({ length: MAX_ITEMS }, () => CART.items[0]) } });
    await expectAnswer("invoicePay", "400 INVALID_JSON", { body: "nope" });
    await expectAnswer("invoicePay", "400 MISSING_FIELD", { body: {} });
    await expectAnswer("invoiceStatus", "400 MISSING_FIELD");
    await expectAnswer("myOrders", "400 INVALID_PARAMETER", { query: "?limit=101" });
    await expectAnswer("myOrders", "400 INVALID_PARAMETER", { query: "?limit=0" });
    await expectAnswer("myOrders", "400 INVALID_PARAMETER", { query: "?start=-1" });
    // A number that is none names the parameter and its rule (lib/platform/http/query.ts), not the validator's text.
    expect((await expectAnswer("giftCardSearch", "400 INVALID_PARAMETER", { query: "?limit=abc" })).body).toMatchObject({
      message: "limit: must be a whole number from 1 to 50",
      field: "limit",
    });
    expect((await expectAnswer("myOrders", "400 INVALID_PARAMETER", { query: "?limit=abc" })).body.message).toBe("limit: must be a whole number from 1 to 100");
  });

  it("refuses a malformed payment (INVALID_PAYMENT) and one on a network not offered (UNSUPPORTED_NETWORK) on every paid route", async () => {
    const avalanche = b64({ x402Version: 1, scheme: "exact", network: "avalanche", payload: {} });
    const { id } = await newInvoice();
    for (const [route, c] of [...FEE_CALLS, ["invoicePay", { body: payBody(id) }] as [X402RouteId, Call]]) {
      await expectAnswer(route, "400 INVALID_PAYMENT", { ...c, headers: { "PAYMENT-SIGNATURE": "%%%" } });
      // A v1 client's X-PAYMENT is read as a payment too.
      await expectAnswer(route, "400 UNSUPPORTED_NETWORK", { ...c, headers: { "X-PAYMENT": avalanche } });
    }
  });

  it("refuses each cart the catalog cannot serve with its code, and a cart without a paying wallet (MISSING_IDENTITY)", async () => {
    const { token } = await signedIn();
    const refused = (code: string, items: unknown[]) => expectAnswer("invoiceCreate", `400 ${code}`, { body: { items }, headers: token });
    await refused("UNKNOWN_PRODUCT", [{ product_id: "no-such-product", package_value: "10" }]);
    await refused("UNKNOWN_PACKAGE", [{ product_id: "test-gift-card-code", package_value: "15" }]);
    await refused("MISSING_FIELD", [{ product_id: "test-phone-refill", package_value: "10" }]);
    await refused("INVALID_RECIPIENT", [{ product_id: "test-phone-refill", package_value: "10", refill_input: "call me" }]);
    // A gift card code that names no card, and one whose card has nothing left.
    const cart = (gift_card_code: string) => ({ body: { items: CART.items, gift_card_code }, headers: token });
    await expectAnswer("invoiceCreate", "400 INVALID_GIFT_CARD", cart("0000-0000-0000-0000-0000"));
    // Ether is paid to the invoice's own address, which this shop (no gas wallet to collect it) does not offer.
    await expectAnswer("invoiceCreate", "400 UNSUPPORTED_PAYMENT_METHOD", { body: { items: CART.items, payment_method: "eth_base" }, headers: token });
    const seller = await createMerchant(database.db, { name: "Cards", creditCents: 10_000n });
    const batch = await createBatch(database.db, seller.merchant_id, { quantity: 1, value: 1, currency: "USD" }, await syncFxSource(database.db));
    await issueBatch(database.db, batch.id);
    const [giftCard] = await batchCards(database.db, batch.id);
    await expectAnswer("invoiceCreate", 200, cart(giftCard!.code));
    await expectAnswer("invoiceCreate", "400 GIFT_CARD_EMPTY", cart(giftCard!.code));
    // A card in euros while the euro has no current rate (live rates gone stale).
    const euros = await createBatch(database.db, seller.merchant_id, { quantity: 1, value: 5, currency: "EUR" }, shippedFxSource);
    await issueBatch(database.db, euros.id);
    setFxSource(tableFxSource(shippedFxSource.asOf, { USD: "1" }));
    try {
      await expectAnswer("invoiceCreate", "400 GIFT_CARD_UNAVAILABLE", cart((await batchCards(database.db, euros.id))[0]!.code));
    } finally {
      setFxSource(shippedFxSource);
    }
    await refused(
      "AMOUNT_TOO_LARGE",
      Array.from({ length: 11 }, () => ({ product_id: "test-esim-product", package_value: "Unlimited, 30 Days" })),
    );

    // As an import would mark it (and tell this process's catalog at once).
    const stock = async (id: string, values: Partial<typeof products.$inferInsert>) => {
      await database.db
        .update(products)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(products.id, id));
      catalogChanged(database.db);
    };
    await stock("test-gift-card-code", { inStock: false });
    await refused("OUT_OF_STOCK", CART.items);
    await stock("test-gift-card-code", { inStock: true });
    // Prices are rounded up to the cent, so only an open amount of nothing comes to less than 0.01 USDC.
    const open = (await getProduct("amazon-jp", database.db))!;
    await stock("amazon-jp", { rangeMinMinor: 0n });
    await refused("AMOUNT_TOO_SMALL", [{ product_id: "amazon-jp", package_value: "0" }]);
    await stock("amazon-jp", { rangeMinMinor: open.range!.minMinor });

    // Stocked codes: one wallet's unpaid invoices hold at most 5 of a package.
    const steam = (await getProduct("steam-us", database.db))!;
    const value = steam.packages[0]!.value;
    const codes = Array.from({ length: 8 }, (_, i) => ({ code: `ANSWERS-${value}-${i}`, pin: null, expirationDate: null }));
    await importStock(database.db, { productId: "steam-us", packageValue: value, codes, batch: "answers" });
    const item = { product_id: "steam-us", package_value: value };
    for (let i = 0; i < 5; i++) await expectAnswer("invoiceCreate", 200, { body: { items: [item] }, headers: token });
    await refused("RESERVATION_LIMIT", [item]);

    // A facilitator that verifies a payment without naming its payer leaves the invoice without a paying wallet.
    const payments = await getPayments();
    const required = requiredOf(await expectAnswer("invoiceCreate", 402, { body: CART }));
    vi.spyOn(payments.server, "verifyPayment").mockResolvedValueOnce({ isValid: true } as Awaited<ReturnType<typeof payments.server.verifyPayment>>);
    // The payer's funds, read beside the verification, as a node would answer them.
    vi.spyOn(verdictClient(evm), "readContract").mockResolvedValueOnce(10n ** 12n);
    await expectAnswer("invoiceCreate", "400 MISSING_IDENTITY", { body: CART, headers: { "PAYMENT-SIGNATURE": await signedPayment(required) } });
  });

  it("answers 403 to another wallet's status, 404 to unknown products and invoices and to an expired one", async () => {
    const { id, token } = await newInvoice();
    const other = await signedIn();
    await expectAnswer("invoiceStatus", "403 NOT_THE_PAYER", { query: `?invoice_id=${id}`, headers: other.token });
    await expectAnswer("invoiceStatus", 200, { query: `?invoice_id=${id}`, headers: token });
    await expectAnswer("invoiceStatus", "404 INVOICE_NOT_FOUND", { query: "?invoice_id=inv_01JZZZZZZZZZZZZZZZZZZZZZZZ", headers: token });
    await expectAnswer("productDetail", "404 PRODUCT_NOT_FOUND", { query: "?slug=no-such-product", headers: token });
    await expectAnswer("invoicePay", "404 INVOICE_NOT_FOUND", { body: payBody("inv_01JZZZZZZZZZZZZZZZZZZZZZZZ") });
    await expectAnswer("invoicePay", "404 INVOICE_NOT_FOUND", { body: payBody("whatever") });
    await database.db
      .update(invoices)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invoices.id, id));
    await expectAnswer("invoicePay", "404 INVOICE_EXPIRED", { body: payBody(id) });
  });

  it("answers 409 to paying an invoice that is not payable here, or that another payment holds", async () => {
    // A merchant's invoice to be paid from its balance is never paid with USDC.
    const m = await createMerchant(database.db, { name: "x402 answers" });
    const created = await callRoute(createMerchantInvoice, "/api/v2/invoices", {
      headers: bearerAuth(m.api_token),
      body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance" },
    });
    await expectAnswer("invoicePay", "409 INVOICE_NOT_PAYABLE", { body: payBody((created.body.data as { id: string }).id) });

    // (Another payment of the invoice is being settled: 409 PAYMENT_IN_PROGRESS, once this one has verified, which
    // takes a chain: lib/checkout/x402/chain-truth.db.test.ts.)
  });

  it("refuses a payment identifier used before with another payment (409 PAYMENT_IDENTIFIER_CONFLICT) on every paid route", async () => {
    const { id } = await newInvoice();
    let n = 0;
    for (const [route, c] of [...FEE_CALLS, ["invoicePay", { body: payBody(id) }] as [X402RouteId, Call]]) {
      const paymentId = `answers-conflict-${route}-${n++}`;
      // The id is its payer's own: the payer used it before, with another payment.
      const from = privateKeyToAccount(generatePrivateKey()).address;
      const payer = `eip155:${from}`;
      await database.db
        .insert(paidAnswers)
        .values({ paymentId, payer, requestHash: "another payment", status: 200, body: "{}", contentType: "application/json" });
      const header = b64({
        x402Version: 2,
        accepted: { network: evm.network },
        payload: { authorization: { from } },
        extensions: { [PAYMENT_IDENTIFIER]: { info: { id: paymentId } } },
      });
      await expectAnswer(route, "409 PAYMENT_IDENTIFIER_CONFLICT", { ...c, headers: { "PAYMENT-SIGNATURE": header } });
    }
  });

  it("answers 429 RATE_LIMITED with Retry-After and the limit's fields on every route once the client's address spent its budget", async () => {
    const limiter = await getRateLimiter();
    const { id } = await newInvoice();
    let n = 10;
    for (const [route, c] of [...FEE_CALLS, ...WALLET_CALLS, ["invoicePay", { body: payBody(id) }] as [X402RouteId, Call]]) {
      const ip = `192.0.2.${n++}`;
      for (let i = 0; i < X402_LIMITS.ip.points; i++) await limiter.consumeX402({ ip });
      const answer = await expectAnswer(route, "429 RATE_LIMITED", { ...c, headers: { [PEER_HEADER]: ip } });
      expect(Number(answer.headers.get("retry-after")), route).toBeGreaterThanOrEqual(1);
      expect(answer.headers.get("x-ratelimit-limit"), route).toBe(String(X402_LIMITS.ip.points));
      expect(answer.headers.get("x-ratelimit-remaining"), route).toBe("0");
      expect(Number(answer.headers.get("x-ratelimit-reset")), route).toBeGreaterThan(Date.now() / 1000);
    }
  });

  it("answers 500 INTERNAL_ERROR on every route when something unexpected fails, and says nothing more", async () => {
    const limiter = await getRateLimiter();
    const { id } = await newInvoice();
    const logged = captureLog();
    try {
      for (const [route, c] of [...FEE_CALLS, ...WALLET_CALLS, ["invoicePay", { body: payBody(id) }] as [X402RouteId, Call]]) {
        vi.spyOn(limiter, "consumeX402").mockRejectedValueOnce(new Error("the limit store broke"));
        const answer = await expectAnswer(route, "500 INTERNAL_ERROR", { ...c, headers: { [PEER_HEADER]: "192.0.2.200" } });
        expect(JSON.stringify(answer.body), route).not.toContain("limit store");
      }
    } finally {
      logged.restore();
      vi.restoreAllMocks();
    }
    // Logged for the operator, once per failure.
    expect(logged.lines.filter((l) => l.msg === "x402 request failed")).toHaveLength(FEE_CALLS.length + WALLET_CALLS.length + 1);
  });

  it("answers 503 SERVICE_UNAVAILABLE with Retry-After on every route while the database is unreachable, never 500", async () => {
    const limiter = await getRateLimiter();
    const { id } = await newInvoice();
    for (const [route, c] of [...FEE_CALLS, ...WALLET_CALLS, ["invoicePay", { body: payBody(id) }] as [X402RouteId, Call]]) {
      // What the PostgreSQL driver throws when the server ends the session (a restart, a failover).
      vi.spyOn(limiter, "consumeX402").mockRejectedValueOnce(new Error("Connection terminated unexpectedly"));
      const answer = await expectAnswer(route, "503 SERVICE_UNAVAILABLE", { ...c, headers: { [PEER_HEADER]: "192.0.2.201" } });
      expect(answer.headers.get("retry-after"), route).toBe("5");
    }
    vi.restoreAllMocks();
  });

  it("answers 503 SHUTTING_DOWN with Retry-After to a payment on every route that settles one, once the server stops taking them", async () => {
    const { id } = await newInvoice();
    const paid: [X402RouteId, Call][] = [...FEE_CALLS, ["invoicePay", { body: payBody(id) }]];
    const payments = await Promise.all(paid.map(async ([route, c]) => signedPayment(requiredOf(await expectAnswer(route, 402, c)))));
    settlements.accepted = false;
    try {
      for (const [i, [route, c]] of paid.entries()) {
        const answer = await expectAnswer(route, "503 SHUTTING_DOWN", { ...c, headers: { "PAYMENT-SIGNATURE": payments[i]! } });
        expect(answer.headers.get("retry-after"), route).toBe("5");
        expect(answer.headers.get("payment-response"), route).toBeNull();
      }
    } finally {
      settlements.accepted = true;
    }
    const [invoice] = await database.db.select().from(invoices).where(eq(invoices.id, id));
    expect(invoice?.status).toBe("unpaid");
  });

  it("answers a body over the size limit with 413 PAYLOAD_TOO_LARGE on the routes that read one, before any payment", async () => {
    const big = JSON.stringify({ items: [{ product_id: "x".repeat(MAX_BODY_BYTES), package_value: "10" }] });
    for (const id of ["invoiceCreate", "invoicePay"] as const) {
      const { method, path } = X402_ROUTES[id];
      const res = await X402_HANDLERS[id](new Request(`${ORIGIN}${path}`, { method, headers: { "Content-Type": "application/json" }, body: big }));
      expect([res.status, ((await res.json()) as { code?: string }).code], id).toEqual([413, "PAYLOAD_TOO_LARGE"]);
      expect(res.headers.get("payment-required"), id).toBeNull();
    }
  });

  it("refuses at each route what the proxy refuses elsewhere (it does not see this API's plain paths): a broken query, a body declared too large", async () => {
    for (const id of Object.keys(X402_ROUTES) as X402RouteId[]) {
      const broken = await call(id, { query: "?q=caf%FF&start=%00" });
      expect([broken.status, broken.body], id).toEqual([400, { code: "INVALID_PARAMETER", message: "The query string is not valid UTF-8." }]);
      // Every answer carries the request's id: the caller's when it sent a plain one, else a new one.
      expect(broken.headers.get("x-request-id"), id).toMatch(/^[0-9a-f-]{36}$/);
      const declared = await call(id, { headers: { "Content-Length": String(MAX_BODY_BYTES + 1), "X-Request-Id": "req-edge-0001" } });
      expect([declared.status, declared.body.code, declared.headers.get("x-request-id")], id).toEqual([413, "PAYLOAD_TOO_LARGE", "req-edge-0001"]);
    }
  });

  it("has tried every answer the document lists, but those a chain gives and those no route gives", () => {
    // Tried in their own tests, on a local chain: a settled invoice payment (lib/checkout/x402/x402-exchange.db.test.ts), and
    // one sent that waits for the chain (lib/checkout/merchant-api/payment-error.db.test.ts).
    // A payment is verified before an invoice held by another is refused: lib/checkout/x402/chain-truth.db.test.ts.
    const onChain = ["POST /x402/invoice/pay 200", "POST /x402/invoice/pay 409 PAYMENT_PENDING", "POST /x402/invoice/pay 409 PAYMENT_IN_PROGRESS"];
    // Documented with the API's common answers, but these routes settle no payment: a stop never answers them 503.
    const never = ["POST /x402/connect", "GET /x402/my/orders", "GET /x402/my/esims"].map((r) => `${r} 503 SHUTTING_DOWN`);
    const untried = documentedX402Answers().filter((a) => !seen.has(a) && !onChain.includes(a) && !never.includes(a));
    expect(untried).toEqual([]);
    for (const a of never) expect(seen.has(a), a).toBe(false);
  });
});
