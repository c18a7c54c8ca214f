/**
 * Paying a merchant's invoice by a plain transfer to its own address, on a real EVM chain (anvil) mining a block a
 * second at the devnet's depth (2), through the merchant API's route handlers and the address watcher's rounds: the
 * invoice's `payment` says where and how much; what arrives is counted at depth, adds up, pays the invoice once it
 * covers it; what is beyond it, late, or short at expiry is credited to the merchant's balance once; a payment
 * reorganized away before its depth is forgotten; and everything decided is flushed to payTo exactly once.
 */
import { and, eq } from "drizzle-orm";
import { createPublicClient, createWalletClient, encodeFunctionData, http, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getInvoiceRoute } from "@/app/api/v2/invoices/[id]/route";
import { POST as createRoute } from "@/app/api/v2/invoices/route";
import type { Database } from "@/lib/platform/db";
import { addressRefunds, invoices, ledgerEntries, paymentAddresses, webhookDeliveries } from "@/lib/platform/db/schema";
import { openTestDatabase, useAsProcessDatabase, withTestCatalog } from "@/test/db";
import { DEVNET_EVM_CHAINS, DEVNET_USDC_ADDRESS } from "@/lib/devnet/chains";
import { mintUsdc, startEvmChain, usdcBalance, type EvmDevChain } from "@/lib/devnet/evm";
import { evmNetwork } from "@/lib/devnet/start-devnet";
import { DEV_USDC_ABI, MULTICALL3_ABI, MULTICALL3_ADDRESS } from "@/lib/devnet/evm/artifacts";
import { POST as payRoute } from "@/app/x402/invoice/pay/route";
import { POST as mcpRoute } from "@/app/mcp/route";
import { X402_HANDLERS } from "@/lib/agents/x402/handlers";
import { issueSessionToken } from "@/lib/identity";
import { x402ResponseSchema } from "@/lib/openapi/x402";
import type { EvmNetwork } from "@/lib/platform/networks";
import { installInProcessPayments } from "@/test/payments";
import { chainControl } from "@/test/adversarial/chain-control";
import { startAdversarialRpc } from "@/test/adversarial/rpc-proxy";
import { bearerAuth, callRoute } from "@/test/merchant-api";
import { addressWarnings, getPayments, watchAddresses, readClient, type AddressEffect } from "@/lib/payments";
import { readHoldings } from "@/lib/payments/forwarders";
import { addressRefundWarnings, chainPayout, drainDue, payAddressRefunds, refundDue } from "@/lib/fulfilment";
import { databaseSenderSync } from "@/lib/payments/nonce-store";
import { balanceOf, createMerchant } from "@/lib/merchants";
import { payInvoice as markInvoicePaid } from "@/test/fulfilment";
import { expireInvoices, getInvoice } from "./index";
import { addressPaymentEffect, addressPaymentEffectWith, LATE_GRACE_MS, LATE_RATE_TOLERANCE_PERCENT } from "./address-payment";

const base = DEVNET_EVM_CHAINS[0];
const gas = privateKeyToAccount(generatePrivateKey());
const payer = privateKeyToAccount(generatePrivateKey());
/** The shop's refund wallet: gas and USDC of its own, ether from its gas. */
const refunder = privateKeyToAccount(generatePrivateKey());
const payTo = privateKeyToAccount(generatePrivateKey()).address;
let database: Database;
let chain: EvmDevChain;
let network: EvmNetwork;
/** A second chain standing in for Ethereum, where invoices are paid by address only. */
let ethChain: EvmDevChain;
let ethereum: EvmNetwork;
let restore: (() => void)[] = [];

beforeAll(async () => {
  [database, chain, ethChain] = await Promise.all([
    openTestDatabase(withTestCatalog),
    startEvmChain({
      chainId: base.chainId,
      name: base.name,
      usdcAddress: DEVNET_USDC_ADDRESS,
      gasWallets: [gas.address, payer.address, refunder.address],
      blockTimeSeconds: 1,
    }),
    startEvmChain({
      chainId: 1_010_402,
      name: "Ethereum (devnet)",
      usdcAddress: DEVNET_USDC_ADDRESS,
      gasWallets: [gas.address, payer.address],
      blockTimeSeconds: 1,
    }),
  ]);
  ethereum = evmNetwork("ethereum", ethChain, payTo, 2);
  network = evmNetwork("base", chain, payTo, 2);
  restore = [useAsProcessDatabase(database), await installInProcessPayments([network], gas, [ethereum])];
  await mintUsdc(chain.rpcUrl, DEVNET_USDC_ADDRESS, payer.address, 10_000_000_000n);
  await mintUsdc(chain.rpcUrl, DEVNET_USDC_ADDRESS, refunder.address, 1_000_000_000n);
  await mintUsdc(ethChain.rpcUrl, DEVNET_USDC_ADDRESS, payer.address, 10_000_000_000n);
}, 60_000);
afterAll(async () => {
  for (const r of restore.reverse()) r();
  await Promise.all([chain?.stop(), ethChain?.stop()]);
  await database?.close();
});

type Payment = {
  method: string;
  status: string;
  price: number;
  address: string;
  amount: string;
  amount_atomic: string;
  amount_usdc: string;
  payment_uri: string;
  confirmations_required: number;
  confirmations: number;
  received: string;
  missing: string;
  credited: string;
  exchange_rate: string;
  coin: string;
  expires_time: string;
};
type Invoice = { id: string; status: string; status_reason?: string; payment: Payment; orders: { status: string }[] };

const control = () => chainControl(chain.rpcUrl);
const client = () => createPublicClient({ transport: http(chain.rpcUrl) });

async function merchant(name: string) {
  const m = await createMerchant(database.db, { name, creditCents: 0n });
  const headers = bearerAuth(m.api_token);
  return {
    id: m.merchant_id,
    create: async (value = 10, extra: Record<string, unknown> = {}, product = "test-gift-card-code") => {
      const res = await callRoute(createRoute, "/api/v2/invoices", {
        headers,
        body: { products: [{ product_id: product, value }], payment_method: "usdc_base", ...extra },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as Invoice;
    },
    get: async (id: string) => (await callRoute(getInvoiceRoute, `/api/v2/invoices/${id}`, { headers, params: { id } })).body.data as Invoice,
  };
}

/** A plain USDC transfer from the payer, as an exchange or a hardware wallet sends it (on Base unless said); sent, not waited for. */
function sendUsdc(to: string, amount: bigint, rpcUrl = chain.rpcUrl): Promise<Hex> {
  return createWalletClient({ account: payer, transport: http(rpcUrl) }).sendTransaction({
    chain: null,
    to: DEVNET_USDC_ADDRESS,
    data: encodeFunctionData({ abi: DEV_USDC_ABI, functionName: "transfer", args: [to as Address, amount] }),
  });
}

/** A transaction from the payer (ether, or a contract call), mined on the chain of `rpcUrl` (Base unless said). */
async function fromPayer(tx: { to: Address; value?: bigint; data?: Hex }, rpcUrl = chain.rpcUrl): Promise<void> {
  const hash = await createWalletClient({ account: payer, transport: http(rpcUrl) }).sendTransaction({ chain: null, ...tx });
  const receipt = await createPublicClient({ transport: http(rpcUrl) }).waitForTransactionReceipt({ hash, pollingInterval: 100 });
  expect(receipt.status).toBe("success");
}

/** sendUsdc, mined. */
async function transfer(to: string, amount: bigint): Promise<Hex> {
  const hash = await sendUsdc(to, amount);
  const receipt = await client().waitForTransactionReceipt({ hash, pollingInterval: 100 });
  expect(receipt.status).toBe("success");
  return hash;
}

/** One watcher round of a network (Base unless said), as the server's loop runs it. */
async function round(now?: Date, n: EvmNetwork = network, effect: AddressEffect = addressPaymentEffect) {
  const payments = await getPayments();
  return watchAddresses(database.db, n, { client: readClient(n), effect, send: payments.gasSender(n), now });
}

/** Rounds (a block apart) until `done` holds. */
async function roundsUntil(done: () => Promise<boolean>, what: string, max = 20, effect?: AddressEffect) {
  for (let i = 0; i < max; i++) {
    await round(undefined, network, effect);
    if (await done()) return;
    await control().waitBlocks(1);
  }
  throw new Error(`not within ${max} rounds: ${what}`);
}

const row = async (invoiceId: string) => (await database.db.select().from(paymentAddresses).where(eq(paymentAddresses.invoiceId, invoiceId)))[0]!;
const status = async (id: string) => (await getInvoice(database.db, id))!.status;
const credits = (merchantId: string) =>
  database.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.merchantId, merchantId), eq(ledgerEntries.kind, "credit")));
const atomic = (inv: Invoice) => BigInt(inv.payment.amount_atomic);

/**
 * Rounds until the address has flushed all it holds at depth: its forwarder has moved exactly `amount` to payTo, and
 * payTo's USDC gained at least that (other invoices' flushes may land meanwhile).
 */
async function flushedToPayTo(invoiceId: string, before: bigint, amount: bigint) {
  const address = (await row(invoiceId)).address as Address;
  await roundsUntil(async () => {
    const r = await row(invoiceId);
    if (r.flushTx === null || r.held !== 0n) return false;
    const [h] = await readHoldings(client(), [address], DEVNET_USDC_ADDRESS, await client().getBlockNumber());
    return h!.held === 0n && h!.flushed === amount;
  }, "flushed to payTo");
  expect(await usdcBalance(chain.rpcUrl, DEVNET_USDC_ADDRESS, address)).toBe(0n);
  expect(await usdcBalance(chain.rpcUrl, DEVNET_USDC_ADDRESS, payTo)).toBeGreaterThanOrEqual(before + amount);
}

describe("an invoice paid by a plain transfer to its own address", () => {
  it("answers where and how much; counts the transfer at depth; is paid, fulfilled, announced; flushes to payTo once", { timeout: 90_000 }, async () => {
    const m = await merchant("Exact");
    const inv = await m.create(10, { webhook_url: "https://merchant.example/hook" });
    const p = inv.payment;
    expect(p.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(p.address).not.toBe(payTo);
    expect(p).toMatchObject({
      method: "usdc_base",
      coin: "USDC",
      exchange_rate: "1",
      confirmations_required: 2,
      confirmations: 0,
      received: "0",
      credited: "0",
    });
    expect(p.amount).toBe(p.amount_usdc);
    expect(p.missing).toBe(p.amount);
    expect(p.payment_uri).toBe(`ethereum:${DEVNET_USDC_ADDRESS}@${chain.chainId}/transfer?address=${p.address}&uint256=${p.amount_atomic}`);
    // The quote ends at the shop's invoice lifetime; the invoice LATE_GRACE_MS after it, for a payment a little late.
    const stored = (await getInvoice(database.db, inv.id))!;
    expect(p.expires_time).toBe(new Date(stored.expiresAt.getTime() - LATE_GRACE_MS).toISOString());
    expect((inv as Invoice & { expires_time: string }).expires_time).toBe(stored.expiresAt.toISOString());

    const payToBefore = await usdcBalance(chain.rpcUrl, DEVNET_USDC_ADDRESS, payTo);
    await transfer(p.address, atomic(inv));
    await roundsUntil(async () => (await status(inv.id)) === "paid", "paid");
    const paid = await m.get(inv.id);
    expect(paid.payment).toMatchObject({
      status: "payment_confirmed",
      received: p.amount,
      missing: "0",
      confirmations: 2,
      credited: "0",
      network: network.network,
    });
    await drainDue(database.db);
    expect((await m.get(inv.id)).status).toBe("complete");
    // The webhook carries the same payment object.
    const [hook] = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.invoiceId, inv.id));
    expect(hook?.payload).toMatchObject({ status: "complete", payment: { address: p.address, received: p.amount, payment_uri: p.payment_uri } });

    await flushedToPayTo(inv.id, payToBefore, atomic(inv));
    const flushTx = (await row(inv.id)).flushTx;
    // Nothing more to flush: later rounds send nothing.
    await control().waitBlocks(2);
    await round();
    expect((await row(inv.id)).flushTx).toBe(flushTx);
    expect(await credits(m.id)).toHaveLength(0);
  });

  it("adds payments up: under-paid shows what is missing, a top-up pays it", { timeout: 60_000 }, async () => {
    const m = await merchant("Top-up");
    const inv = await m.create(10);
    const first = (atomic(inv) * 4n) / 10n;
    await transfer(inv.payment.address, first);
    await roundsUntil(async () => (await row(inv.id)).received === first, "the first part counted");
    expect(await status(inv.id)).toBe("unpaid");
    const short = await m.get(inv.id);
    expect(short.payment).toMatchObject({ status: "unpaid", received: fmt(first), missing: fmt(atomic(inv) - first) });
    await transfer(inv.payment.address, atomic(inv) - first);
    await roundsUntil(async () => (await status(inv.id)) === "paid", "paid by the two");
    expect(await credits(m.id)).toHaveLength(0);
  });

  it("credits what is paid beyond the price to the balance, once, and flushes it all", { timeout: 60_000 }, async () => {
    const m = await merchant("Over");
    const inv = await m.create(10);
    const before = await usdcBalance(chain.rpcUrl, DEVNET_USDC_ADDRESS, payTo);
    const extra = 2_345_678n;
    await transfer(inv.payment.address, atomic(inv) + extra);
    await roundsUntil(async () => (await status(inv.id)) === "paid", "paid");
    // Two servers' rounds at once: one credit.
    await Promise.all([round(), round()]);
    const entries = await credits(m.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.amountCents).toBe(234n);
    expect(await balanceOf(database.db, m.id)).toBe(234n);
    expect(await m.get(inv.id)).toMatchObject({ payment: { credited: fmt(extra) } });
    await flushedToPayTo(inv.id, before, atomic(inv) + extra);
  });

  it("credits a short payment when the invoice ends unpaid, and a payment that comes after", { timeout: 60_000 }, async () => {
    const m = await merchant("Short");
    const inv = await m.create(10);
    const half = atomic(inv) / 2n;
    await transfer(inv.payment.address, half);
    await roundsUntil(async () => (await row(inv.id)).received === half, "the half counted");
    // Its time runs out.
    await database.db
      .update(invoices)
      .set({ expiresAt: new Date(Date.now() - 1_000) })
      .where(eq(invoices.id, inv.id));
    expect(await expireInvoices(database.db)).toBe(1);
    await round();
    expect(await m.get(inv.id)).toMatchObject({ status: "denied", status_reason: "expired", payment: { received: fmt(half), credited: fmt(half) } });
    expect((await credits(m.id)).map((e) => e.amountCents)).toEqual([half / 10_000n]);
    // Late: the rest arrives after the end; credited too, not taken as payment.
    await transfer(inv.payment.address, atomic(inv) - half);
    await roundsUntil(async () => (await row(inv.id)).credited === atomic(inv), "the late part credited");
    expect(await status(inv.id)).toBe("expired");
    expect((await credits(m.id)).map((e) => e.amountCents)).toEqual([half / 10_000n, (atomic(inv) - half) / 10_000n]);
  });

  it("honours a payment seen before the expiry that reaches its depth after it", { timeout: 60_000 }, async () => {
    const m = await merchant("Just in time");
    const inv = await m.create(10);
    const c = control();
    // The payment is mined; no block on top of it yet.
    await c.pauseMining();
    try {
      const hash = await sendUsdc(inv.payment.address, atomic(inv));
      await c.mine();
      expect((await client().getTransactionReceipt({ hash })).status).toBe("success");
      await round();
      expect(await m.get(inv.id)).toMatchObject({ status: "unpaid", payment: { status: "unpaid", received: "0", confirmations: 1 } });
      // The invoice's time runs out while its payment waits for depth: held, it does not expire.
      await database.db
        .update(invoices)
        .set({ expiresAt: new Date(Date.now() - 1_000) })
        .where(eq(invoices.id, inv.id));
      expect(await expireInvoices(database.db)).toBe(0);
    } finally {
      await c.resumeMining(1);
    }
    await roundsUntil(async () => (await status(inv.id)) === "paid", "paid after its expiry");
    expect(await credits(m.id)).toHaveLength(0);
  });

  it("forgets a payment reorganized away before its depth, and lets the invoice go", { timeout: 60_000 }, async () => {
    const m = await merchant("Reorg");
    const inv = await m.create(10);
    const c = control();
    await c.pauseMining();
    try {
      const hash = await sendUsdc(inv.payment.address, atomic(inv));
      await c.mine();
      await round();
      expect((await row(inv.id)).seen).toBe(atomic(inv));
      expect((await getInvoice(database.db, inv.id))!.paymentClaim).not.toBeNull();
      // Its block is replaced by one without it, and the node forgets it.
      await c.reorg(1);
      await c.dropTransaction(hash).catch(() => undefined);
      expect(
        await client()
          .getTransactionReceipt({ hash })
          .catch(() => null),
      ).toBeNull();
    } finally {
      await c.resumeMining(1);
    }
    await c.waitBlocks(3);
    await round();
    expect(await row(inv.id)).toMatchObject({ received: 0n, seen: 0n, applied: 0n, credited: 0n });
    const after = await getInvoice(database.db, inv.id);
    expect(after).toMatchObject({ status: "unpaid", paymentClaim: null });
    expect(await m.get(inv.id)).toMatchObject({ payment: { received: "0", confirmations: 0, missing: inv.payment.amount } });
  });

  it("refunds a failed order of an invoice paid by address to the balance, not to whoever sent the transfer", { timeout: 60_000 }, async () => {
    const m = await merchant("Failing");
    const inv = await m.create(10, {}, "test-gift-card-code-fail");
    await transfer(inv.payment.address, atomic(inv));
    await roundsUntil(async () => (await status(inv.id)) === "paid", "paid");
    await drainDue(database.db);
    const done = await m.get(inv.id);
    expect(done).toMatchObject({ status: "complete", orders: [{ status: "refunded" }] });
    const refunds = await database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.merchantId, m.id), eq(ledgerEntries.kind, "refund")));
    expect(refunds.map((e) => e.amountCents)).toEqual([BigInt(inv.payment.price)]);
    expect(await balanceOf(database.db, m.id)).toBe(BigInt(inv.payment.price));
  });

  it("credits a transfer to an invoice already paid another way; the same transfer counts for no other invoice", { timeout: 60_000 }, async () => {
    const m = await merchant("Twice");
    const [inv, other] = [await m.create(10), await m.create(10)];
    await markInvoicePaid(database.db, inv.id);
    // Paid another way: nothing is missing at its address any more.
    expect((await m.get(inv.id)).payment).toMatchObject({ received: "0", missing: "0" });
    await transfer(inv.payment.address, atomic(inv));
    await roundsUntil(async () => (await row(inv.id)).credited === atomic(inv), "credited");
    expect((await credits(m.id)).map((e) => e.amountCents)).toEqual([atomic(inv) / 10_000n]);
    expect(await row(other.id)).toMatchObject({ received: 0n, seen: 0n });
    expect(await status(other.id)).toBe("unpaid");
  });
});

describe("a payment after the quote's end", () => {
  /** The invoice's quote ends now; its grace goes on. */
  const quoteOver = (id: string) =>
    database.db
      .update(paymentAddresses)
      .set({ quoteExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(paymentAddresses.invoiceId, id));
  /** The amount rules, weighing late payments against this ether price now (null: none can be read). */
  const pricedAt = (usd: string | null): AddressEffect => addressPaymentEffectWith(async () => (usd === null ? { refused: "stale" } : { usd }));

  it("is honoured before the invoice ends: USDC always, ether while its price is within the tolerance", { timeout: 90_000 }, async () => {
    expect(LATE_RATE_TOLERANCE_PERCENT).toBe(2);
    const m = await merchant("Late");
    const usdc = await m.create(10);
    await quoteOver(usdc.id);
    await transfer(usdc.payment.address, atomic(usdc));
    await roundsUntil(async () => (await status(usdc.id)) === "paid", "the late USDC paid", 20, pricedAt("1"));

    const eth = await m.create(10, { payment_method: "eth_base" });
    await quoteOver(eth.id);
    await fromPayer({ to: eth.payment.address as Address, value: atomic(eth) });
    // No price to weigh it against: it waits, undecided, neither paid nor credited.
    await control().waitBlocks(2);
    for (let i = 0; i < 3; i++) await round(undefined, network, pricedAt(null));
    expect(await row(eth.id)).toMatchObject({ received: atomic(eth), applied: 0n, credited: 0n });
    expect(await status(eth.id)).toBe("unpaid");
    // 1.5% below the locked 3,000: honoured.
    await roundsUntil(async () => (await status(eth.id)) === "paid", "the late ether paid", 20, pricedAt("2955"));
    expect(await credits(m.id)).toHaveLength(0);
  });

  it("beyond the tolerance ends the invoice at once and credits what arrived, announced once", { timeout: 60_000 }, async () => {
    const m = await merchant("Too late");
    const eth = await m.create(10, { payment_method: "eth_base", webhook_url: "https://merchant.example/late" });
    await quoteOver(eth.id);
    await fromPayer({ to: eth.payment.address as Address, value: atomic(eth) });
    // 2.5% below the locked 3,000: the invoice ends, what arrived is the merchant's at the locked rate.
    await roundsUntil(async () => (await row(eth.id)).credited === atomic(eth), "credited", 20, pricedAt("2925"));
    await Promise.all([round(undefined, network, pricedAt("2925")), round(undefined, network, pricedAt("3000"))]);
    expect(await status(eth.id)).toBe("expired");
    expect(await m.get(eth.id)).toMatchObject({
      status: "denied",
      status_reason: "expired",
      payment: { received: eth.payment.amount, credited: eth.payment.amount },
    });
    expect((await credits(m.id)).map((e) => e.amountCents)).toEqual([1000n]);
    const hooks = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.invoiceId, eth.id));
    expect(hooks.map((h) => (h.payload as { status: string }).status)).toEqual(["denied"]);
  });
});

describe("a shopper's (or an agent's) invoice paid by address, through /x402 and MCP", () => {
  const owner = privateKeyToAccount(generatePrivateKey());
  const x402 = async (path: string, init: { method?: string; body?: unknown } = {}) => {
    const token = (await issueSessionToken({ chainId: network.network, address: owner.address })).token;
    const route = path.startsWith("/x402/invoice/create") ? "invoiceCreate" : path.startsWith("/x402/invoice/status") ? "invoiceStatus" : "invoicePay";
    const res = await X402_HANDLERS[route](
      new Request(`http://127.0.0.1${path}`, {
        method: init.method ?? (init.body ? "POST" : "GET"),
        headers: { "X-Access-Token": token, "Content-Type": "application/json" },
        ...(init.body ? { body: JSON.stringify(init.body) } : {}),
      }),
    );
    const body = (await res.json()) as Record<string, unknown> & { payment?: ShopperPayment; error_code?: string };
    // Every answer is one the OpenAPI document describes.
    const documented = x402ResponseSchema(init.method ?? (init.body ? "POST" : "GET"), path.split("?")[0]!, res.status);
    expect(documented, `${path} ${res.status}`).toBeDefined();
    const checked = documented!.safeParse(body);
    expect(checked.success, JSON.stringify(checked.error?.issues)).toBe(true);
    return { status: res.status, body };
  };
  type ShopperPayment = Payment & { network: string; refund_address: string | null; transaction: string | null };
  const CART = [{ product_id: "test-gift-card-code", package_value: "10" }];

  it("quotes ether at its own address, takes no USDC for it through x402, and is paid, fulfilled and read by its wallet", { timeout: 60_000 }, async () => {
    const created = await x402("/x402/invoice/create", { body: { items: CART, payment_method: "eth_base" } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const p = created.body.payment!;
    expect(p).toMatchObject({
      method: "eth_base",
      network: network.network,
      coin: "ETH",
      exchange_rate: "3000",
      amount: "0.00333334",
      received: "0",
      // By default, the paying wallet's own address: never whoever sends the transfer.
      refund_address: owner.address,
      transaction: null,
    });
    expect(p.payment_uri).toBe(`ethereum:${p.address}@${chain.chainId}?value=${p.amount_atomic}`);
    // No x402 way for ether: no network offered, and the next step is to watch the status.
    expect(created.body).toMatchObject({ networks: [], expires_in_minutes: 75 });
    expect((created.body.next_step as { url: string }).url).toContain("/x402/invoice/status");
    const id = created.body.invoice_id as string;
    expect((await x402("/x402/invoice/pay", { body: { invoice_id: id } })).status).toBe(409);

    await fromPayer({ to: p.address as Address, value: BigInt(p.amount_atomic) });
    await roundsUntil(async () => (await status(id)) === "paid", "paid");
    await drainDue(database.db);
    const done = await x402(`/x402/invoice/status?invoice_id=${id}`);
    expect(done.body).toMatchObject({ status: "complete", payment: { method: "eth_base", received: p.amount, missing: "0", address: p.address } });
    expect(done.body.redemption_info).toHaveLength(1);
  });

  it("refuses a method the shop cannot take or an address that is none, with the field at fault", async () => {
    const bad = [
      [{ payment_method: "bitcoin" }, "payment_method", "INVALID_PARAMETER"],
      // This shop runs no Arbitrum.
      [{ payment_method: "usdc_arbitrum" }, "payment_method", "UNSUPPORTED_PAYMENT_METHOD"],
      [{ payment_method: "eth_base", refund_address: "0x1234" }, "refund_address", "INVALID_PARAMETER"],
      [{ payment_method: "eth_base", refund_address: "0x" + "g".repeat(40) }, "refund_address", "INVALID_PARAMETER"],
      // A Solana address for a refund on Base.
      [{ payment_method: "eth_base", refund_address: "So11111111111111111111111111111111111111112" }, "refund_address", "INVALID_PARAMETER"],
    ] as const;
    for (const [extra, field, code] of bad) {
      const res = await x402("/x402/invoice/create", { body: { items: CART, ...extra } });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ code, field });
    }
  });

  it("the MCP tool creates one and answers the same payment object, URI included", async () => {
    const refundTo = privateKeyToAccount(generatePrivateKey()).address;
    const token = (await issueSessionToken({ chainId: network.network, address: owner.address })).token;
    const res = await mcpRoute(
      new Request("http://127.0.0.1:4311/mcp", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", host: "127.0.0.1:4311" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "create_invoice",
            arguments: { items: CART, payment_method: "usdc_base", refund_address: refundTo.toLowerCase(), access_token: token },
          },
        }),
      }),
    );
    const rpc = (await res.json()) as { result: { isError?: boolean; structuredContent: { payment: ShopperPayment; networks: { network: string }[] } } };
    expect(rpc.result.isError).toBeUndefined();
    const { payment, networks } = rpc.result.structuredContent;
    expect(payment).toMatchObject({ method: "usdc_base", coin: "USDC", refund_address: refundTo });
    expect(payment.payment_uri).toBe(`ethereum:${DEVNET_USDC_ADDRESS}@${chain.chainId}/transfer?address=${payment.address}&uint256=${payment.amount_atomic}`);
    // USDC on Base: x402 pays it too, on Base only.
    expect(networks.map((n) => n.network)).toEqual([network.network]);
  });

  const payout = () => chainPayout({ networks: [network], evmKey: refunder, sync: databaseSenderSync(async () => database), confirmTimeoutMs: 20_000 });
  const refundsOf = (invoiceId: string) => database.db.select().from(addressRefunds).where(eq(addressRefunds.invoiceId, invoiceId));

  it("refunds what is paid beyond the price to the refund address, in ether, once, whoever sent it", { timeout: 90_000 }, async () => {
    const refundTo = privateKeyToAccount(generatePrivateKey()).address;
    const created = await x402("/x402/invoice/create", { body: { items: CART, payment_method: "eth_base", refund_address: refundTo } });
    const p = created.body.payment!;
    const id = created.body.invoice_id as string;
    const extra = 10n ** 15n;
    await fromPayer({ to: p.address as Address, value: BigInt(p.amount_atomic) + extra });
    await roundsUntil(async () => (await refundsOf(id)).length === 1, "the extra owed back");
    expect(await status(id)).toBe("paid");
    const [owed] = await refundsOf(id);
    expect(owed).toMatchObject({ amount: extra, asset: "native", currency: "ETH", toAddress: refundTo, status: "due" });
    expect((await x402(`/x402/invoice/status?invoice_id=${id}`)).body.payment).toMatchObject({ credited: "0.001", refund_address: refundTo });
    // Two servers' refund loops at once: one transfer.
    const [a, b] = await Promise.all([payAddressRefunds(database.db, payout()), payAddressRefunds(database.db, payout())]);
    expect([...a, ...b]).toEqual([owed!.id]);
    expect(await client().getBalance({ address: refundTo })).toBe(extra);
    expect(await payAddressRefunds(database.db, payout())).toEqual([]);
    expect((await refundsOf(id))[0]).toMatchObject({ status: "paid", raw: null });
    expect(await client().getBalance({ address: refundTo })).toBe(extra);
    // Dust sent after (a tenth of a cent's worth): recorded and kept, no refund transfer paid for it.
    await fromPayer({ to: p.address as Address, value: 10n ** 12n });
    await roundsUntil(async () => (await refundsOf(id)).length === 2, "the dust recorded");
    expect((await refundsOf(id)).find((r) => r.amount === 10n ** 12n)).toMatchObject({ status: "kept" });
    expect(await payAddressRefunds(database.db, payout())).toEqual([]);
    expect(await client().getBalance({ address: refundTo })).toBe(extra);
    // The address's funds, extra included, went on to payTo: the refund came from the shop's refund wallet.
    await roundsUntil(async () => {
      const [h] = await readHoldings(client(), [p.address as Address], "native", await client().getBlockNumber());
      return h!.flushed >= BigInt(p.amount_atomic) + extra;
    }, "flushed");
  });

  it("a refund stored and never sent, or sent and never recorded, is finished by a later round with the same transfer, once", { timeout: 90_000 }, async () => {
    const refundTo = privateKeyToAccount(generatePrivateKey()).address;
    const created = await x402("/x402/invoice/create", { body: { items: CART, payment_method: "usdc_base", refund_address: refundTo } });
    const p = created.body.payment!;
    const id = created.body.invoice_id as string;
    const extra = 1_234_567n;
    await transfer(p.address, BigInt(p.amount_atomic) + extra);
    await roundsUntil(async () => (await refundsOf(id)).length === 1, "the extra owed back");
    const real = payout();
    // The process dies once the transfer is stored: nothing reaches the chain, and no answer is awaited.
    const died = { ...real, confirmTimeoutMs: 0, send: async () => {} };
    expect(await payAddressRefunds(database.db, died)).toEqual([]);
    const [stored] = await refundsOf(id);
    expect(stored).toMatchObject({ status: "due" });
    expect(stored!.tx).toMatch(/^0x[0-9a-f]{64}$/);
    // Its hold lapses; the next round sends the same bytes and records it.
    const later = new Date(Date.now() + 61_000);
    expect(await payAddressRefunds(database.db, real, { now: later })).toEqual([stored!.id]);
    expect((await refundsOf(id))[0]).toMatchObject({ status: "paid", tx: stored!.tx });
    expect(await usdcBalance(chain.rpcUrl, DEVNET_USDC_ADDRESS, refundTo)).toBe(extra);

    // Sent and landed, the process dead before it recorded it: the next round finds it landed and signs nothing new.
    const second = await x402("/x402/invoice/create", { body: { items: CART, payment_method: "usdc_base", refund_address: refundTo } });
    const q = second.body.payment!;
    const secondId = second.body.invoice_id as string;
    await transfer(q.address, BigInt(q.amount_atomic) + extra);
    await roundsUntil(async () => (await refundsOf(secondId)).length === 1, "the second extra owed back");
    let signed = 0;
    const unrecorded = {
      ...real,
      sign: (...args: Parameters<typeof real.sign>) => {
        signed++;
        return real.sign(...args);
      },
      // It lands; the answer never comes back.
      status: async () => ({ status: "pending" as const }),
      confirmTimeoutMs: 0,
    };
    expect(await payAddressRefunds(database.db, unrecorded)).toEqual([]);
    const [sent] = await refundsOf(secondId);
    await createPublicClient({ transport: http(chain.rpcUrl) }).waitForTransactionReceipt({ hash: sent!.tx as Hex, pollingInterval: 100 });
    await control().waitBlocks(2);
    expect(await payAddressRefunds(database.db, { ...real, sign: unrecorded.sign }, { now: new Date(Date.now() + 61_000) })).toEqual([sent!.id]);
    expect(signed).toBe(1);
    expect((await refundsOf(secondId))[0]).toMatchObject({ status: "paid", tx: sent!.tx });
    expect(await usdcBalance(chain.rpcUrl, DEVNET_USDC_ADDRESS, refundTo)).toBe(2n * extra);
  });

  it(
    "an ether refund that a rising base fee keeps out of the blocks is sent again at a higher fee, its value kept, paid once",
    { timeout: 90_000 },
    async () => {
      const refundTo = privateKeyToAccount(generatePrivateKey()).address;
      const created = await x402("/x402/invoice/create", { body: { items: CART, payment_method: "eth_base", refund_address: refundTo } });
      const p = created.body.payment!;
      const id = created.body.invoice_id as string;
      const extra = 2n * 10n ** 15n;
      await fromPayer({ to: p.address as Address, value: BigInt(p.amount_atomic) + extra });
      await roundsUntil(async () => (await refundsOf(id)).length === 1, "the extra owed back");
      const c = control();
      await c.pauseMining();
      try {
        const paying = payAddressRefunds(
          database.db,
          chainPayout({ networks: [network], evmKey: refunder, sync: databaseSenderSync(async () => database), confirmTimeoutMs: 30_000, stuckAfterMs: 2_000 }),
        );
        // The transfer waits in the pool at the fee of the moment; then the base fee jumps past it.
        let first: { hash: Hex } | undefined;
        for (let i = 0; i < 200 && !first; i++) {
          [first] = await c.pooled(refunder.address);
          if (!first) await new Promise((r) => setTimeout(r, 50));
        }
        expect(first).toBeDefined();
        await c.rpc("anvil_setNextBlockBaseFeePerGas", [`0x${(500n * 10n ** 9n).toString(16)}`]);
        await c.mine();
        await c.resumeMining(1);
        const [owed] = await refundsOf(id);
        expect(await paying).toEqual([owed!.id]);
        const [done] = await refundsOf(id);
        expect(done).toMatchObject({ status: "paid" });
        expect(done!.tx).not.toBe(first!.hash);
        expect(done!.superseded).toEqual([first!.hash]);
        // The dearer version carries the same value: the refund address got the extra, once.
        expect(await client().getBalance({ address: refundTo })).toBe(extra);
      } finally {
        await c.resumeMining(1);
        await c.rpc("anvil_setNextBlockBaseFeePerGas", [`0x${(10n ** 9n).toString(16)}`]);
      }
    },
  );

  it("refunds a failed order of a shopper's invoice paid by address to the refund address, not the sender", { timeout: 60_000 }, async () => {
    const refundTo = privateKeyToAccount(generatePrivateKey()).address;
    const created = await x402("/x402/invoice/create", {
      body: { items: [{ product_id: "test-gift-card-code-fail", package_value: "10" }], payment_method: "usdc_base", refund_address: refundTo },
    });
    const p = created.body.payment!;
    const id = created.body.invoice_id as string;
    await transfer(p.address, BigInt(p.amount_atomic));
    await roundsUntil(async () => (await status(id)) === "paid", "paid");
    await drainDue(database.db);
    const refunds = await refundDue(database.db, payout());
    expect(refunds.map((r) => r.invoiceId)).toEqual([id]);
    expect(await usdcBalance(chain.rpcUrl, DEVNET_USDC_ADDRESS, refundTo)).toBe(BigInt(p.amount_atomic));
    expect(await usdcBalance(chain.rpcUrl, DEVNET_USDC_ADDRESS, payer.address)).toBeGreaterThan(0n);
    expect((await x402(`/x402/invoice/status?invoice_id=${id}`)).body).toMatchObject({ status: "complete", orders: [{ status: "refunded" }] });
  });

  it("without a refund address, what is owed back waits for the operator, who is warned", { timeout: 60_000 }, async () => {
    // A Solana wallet's invoice paid in ether on Base, with no refund address given.
    const solanaOwner = { chainId: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", address: "So11111111111111111111111111111111111111112" };
    const token = (await issueSessionToken(solanaOwner)).token;
    const res = await X402_HANDLERS.invoiceCreate(
      new Request("http://127.0.0.1/x402/invoice/create", {
        method: "POST",
        headers: { "X-Access-Token": token, "Content-Type": "application/json" },
        body: JSON.stringify({ items: CART, payment_method: "eth_base" }),
      }),
    );
    const created = (await res.json()) as { invoice_id: string; payment: ShopperPayment };
    expect(created.payment.refund_address).toBeNull();
    await fromPayer({ to: created.payment.address as Address, value: BigInt(created.payment.amount_atomic) + 10n ** 15n });
    await roundsUntil(async () => (await refundsOf(created.invoice_id)).length === 1, "the extra owed back");
    expect(await payAddressRefunds(database.db, payout())).toEqual([]);
    expect((await refundsOf(created.invoice_id))[0]).toMatchObject({ status: "due", toAddress: null });
    expect((await addressRefundWarnings(database.db)).join("\n")).toContain(`invoice ${created.invoice_id}`);
  });
});

describe("what the payer controls in the shop's gas", () => {
  it("flushes dust sent after the payment only once it is worth a flush: a payer's dust costs the shop no flush each", { timeout: 90_000 }, async () => {
    const m = await merchant("Dust");
    const inv = await m.create(10);
    await transfer(inv.payment.address, atomic(inv));
    await roundsUntil(async () => (await row(inv.id)).flushTx !== null && (await row(inv.id)).held === 0n, "paid and flushed");
    const first = (await row(inv.id)).flushTx;
    // Three dust transfers, each credited (a cent's worth at most moves nothing), none flushed: later than the retry
    // time too (rounds "three minutes on"), they stay at the forwarder, where only payTo can get them.
    const later = () => new Date(Date.now() + 3 * 60_000);
    for (const dust of [10_000n, 250_000n, 400_000n]) await transfer(inv.payment.address, dust);
    for (let i = 0; i < 4; i++) {
      await round(later());
      await control().waitBlocks(1);
    }
    expect(await row(inv.id)).toMatchObject({ flushTx: first, held: 660_000n, credited: 660_000n });
    // (Transfers counted in one round are credited together.)
    expect((await credits(m.id)).reduce((sum, e) => sum + e.amountCents, 0n)).toBe(66n);
    // Worth a flush (a dollar): flushed, once.
    await transfer(inv.payment.address, 400_000n);
    await roundsUntil(async () => {
      await round(later());
      const r = await row(inv.id);
      return r.flushTx !== first && r.held === 0n;
    }, "the dust flushed once it is worth a dollar");
    const [h] = await readHoldings(client(), [inv.payment.address as Address], DEVNET_USDC_ADDRESS, await client().getBlockNumber());
    expect(h).toEqual({ held: 0n, flushed: atomic(inv) + 1_060_000n });
  });
});

describe("through a node that lags, refuses and answers from behind", () => {
  it("counts the payment once, credits once and flushes once, whatever the node answers meanwhile", { timeout: 90_000 }, async () => {
    const proxy = await startAdversarialRpc(chain.rpcUrl);
    try {
      const behind: EvmNetwork = { ...network, rpcUrl: proxy.url };
      const m = await merchant("Bad node");
      const inv = await m.create(10);
      // Every fifth read refused (429) and the head answered two blocks behind, as a load-balanced provider does.
      proxy.set({ tooMany: { methods: ["eth_call", "eth_blockNumber"], every: 5 }, behind: { blocks: 2 } });
      await transfer(inv.payment.address, atomic(inv) + 1_000_000n);
      // Two blocks on the real chain: deep enough there, not yet seen through the node behind.
      await control().waitBlocks(2);
      await round(undefined, behind).catch(() => undefined);
      expect(await status(inv.id)).toBe("unpaid");
      for (let i = 0; i < 30 && !((await status(inv.id)) === "paid" && (await row(inv.id)).held === 0n); i++) {
        // Two servers' rounds at once, through the same bad node.
        // (A round the node refused fails as a whole and is tried again: nothing is decided from a refusal.)
        await Promise.allSettled([round(undefined, behind), round(undefined, behind)]);
        await control().waitBlocks(1);
      }
      // The faults were in force: every fifth read of these was refused.
      expect(proxy.calls.filter((c) => c === "eth_call" || c === "eth_blockNumber").length).toBeGreaterThanOrEqual(10);
      expect(await status(inv.id)).toBe("paid");
      expect(await row(inv.id)).toMatchObject({ applied: atomic(inv), credited: 1_000_000n, held: 0n });
      expect((await credits(m.id)).map((e) => e.amountCents)).toEqual([100n]);
      proxy.set({});
      const [h] = await readHoldings(client(), [inv.payment.address as Address], DEVNET_USDC_ADDRESS, await client().getBlockNumber());
      expect(h).toEqual({ held: 0n, flushed: atomic(inv) + 1_000_000n });
    } finally {
      await proxy.close();
    }
  });
});

describe("an invoice paid in ether", () => {
  it(
    "asks the price in ether at the locked rate, counts ether sent plainly and through a contract's internal call, and flushes it",
    { timeout: 60_000 },
    async () => {
      const m = await merchant("Ether");
      const inv = await m.create(10, { payment_method: "eth_base" });
      const p = inv.payment as Payment & Record<string, unknown>;
      // 10 USD at the devnet's 3,000 USD per ether, rounded up to 8 decimals.
      const wei = 3_333_340_000_000_000n;
      expect(p).toMatchObject({
        method: "eth_base",
        coin: "ETH",
        exchange_rate: "3000",
        amount_atomic: wei.toString(),
        received: "0",
        network: network.network,
      });
      expect(p.amount).toBe("0.00333334");
      expect(p.payment_uri).toBe(`ethereum:${p.address}@${chain.chainId}?value=${wei}`);
      expect(p).not.toHaveProperty("amount_usdc");
      expect(p).not.toHaveProperty("payment_url");
      expect(p).not.toHaveProperty("contract_address");
      // Not payable with USDC through x402.
      const x402 = await payRoute(
        new Request("http://127.0.0.1/x402/invoice/pay", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ invoice_id: inv.id }),
        }),
      );
      expect(x402.status).toBe(409);
      expect(await x402.text()).toContain("paid in ether");

      const half = wei / 2n;
      await fromPayer({ to: p.address as Address, value: half });
      // The rest by a contract's call with value: no transaction's `to` is the address.
      const internal = encodeFunctionData({
        abi: MULTICALL3_ABI,
        functionName: "aggregate3Value",
        args: [[{ target: p.address as Address, allowFailure: false, value: wei - half, callData: "0x" }]],
      });
      await fromPayer({ to: MULTICALL3_ADDRESS, data: internal, value: wei - half });
      await roundsUntil(async () => (await status(inv.id)) === "paid", "paid in ether");
      expect(await m.get(inv.id)).toMatchObject({ payment: { received: p.amount, missing: "0", credited: "0" } });
      await roundsUntil(async () => {
        const [h] = await readHoldings(client(), [p.address as Address], "native", await client().getBlockNumber());
        return h!.held === 0n && h!.flushed === wei;
      }, "flushed");
      expect(await client().getBalance({ address: payTo })).toBeGreaterThanOrEqual(wei);
    },
  );
});

describe("invoices paid on Ethereum, by address only", () => {
  it("takes ether (`ethereum`) and USDC (`usdc_erc20`) there, with no x402 way, and flushes both", { timeout: 60_000 }, async () => {
    const m = await merchant("Ethereum");
    const eth = await m.create(10, { payment_method: "ethereum" });
    const usdc = await m.create(10, { payment_method: "usdc_erc20" });
    for (const inv of [eth, usdc]) {
      expect(inv.payment).toMatchObject({ network: ethereum.network, network_name: "Ethereum (devnet)", confirmations_required: 2 });
      expect(inv.payment).not.toHaveProperty("payment_url");
      expect(inv.payment).toHaveProperty("payment_page");
    }
    expect(eth.payment).toMatchObject({ coin: "ETH", exchange_rate: "3000", amount: "0.00333334" });
    expect(usdc.payment).toMatchObject({ coin: "USDC", amount: "10", contract_address: DEVNET_USDC_ADDRESS });
    expect(usdc.payment).not.toHaveProperty("amount_usdc");
    const x402 = await payRoute(
      new Request("http://127.0.0.1/x402/invoice/pay", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ invoice_id: usdc.id }),
      }),
    );
    expect(x402.status).toBe(409);
    expect(await x402.text()).toContain("on Ethereum, not through x402");

    const onEth = createPublicClient({ transport: http(ethChain.rpcUrl) });
    await fromPayer({ to: eth.payment.address as Address, value: atomic(eth) }, ethChain.rpcUrl);
    await onEth.waitForTransactionReceipt({ hash: await sendUsdc(usdc.payment.address, atomic(usdc), ethChain.rpcUrl), pollingInterval: 100 });
    for (let i = 0; i < 20 && ((await status(eth.id)) !== "paid" || (await status(usdc.id)) !== "paid"); i++) {
      await round(undefined, ethereum);
      await chainControl(ethChain.rpcUrl).waitBlocks(1);
    }
    expect([await status(eth.id), await status(usdc.id)]).toEqual(["paid", "paid"]);
    // Both flushed to payTo on that chain.
    for (let i = 0; i < 20; i++) {
      const head = await onEth.getBlockNumber();
      const [e] = await readHoldings(onEth, [eth.payment.address as Address], "native", head);
      const [u] = await readHoldings(onEth, [usdc.payment.address as Address], DEVNET_USDC_ADDRESS, head);
      if (e!.held === 0n && u!.held === 0n && e!.flushed === atomic(eth) && u!.flushed === atomic(usdc)) break;
      await round(undefined, ethereum);
      await chainControl(ethChain.rpcUrl).waitBlocks(1);
    }
    expect(await onEth.getBalance({ address: payTo })).toBe(atomic(eth));
    expect(await usdcBalance(ethChain.rpcUrl, DEVNET_USDC_ADDRESS, payTo)).toBe(atomic(usdc));
  });
});

describe("what the operator sees", () => {
  it("warns of an address still holding funds long after its flush, and of a network whose watcher fails", { timeout: 60_000 }, async () => {
    const m = await merchant("Watched");
    const inv = await m.create(10);
    await transfer(inv.payment.address, atomic(inv));
    await roundsUntil(async () => (await status(inv.id)) === "paid" && (await row(inv.id)).flushTx !== null, "paid and flushed");
    expect((await addressWarnings(database.db)).join("\n")).not.toContain(inv.payment.address);
    // As if the flush had never landed: the funds still there at depth eleven minutes after it was sent.
    await database.db
      .update(paymentAddresses)
      .set({ held: 1n, flushSentAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(paymentAddresses.invoiceId, inv.id));
    expect((await addressWarnings(database.db)).join("\n")).toContain(inv.payment.address);
    await database.db.update(paymentAddresses).set({ held: 0n }).where(eq(paymentAddresses.invoiceId, inv.id));

    // A network whose node does not answer: its round fails and says so, and the next good round clears it.
    const dead: EvmNetwork = { ...network, network: "eip155:99999", rpcUrl: "http://127.0.0.1:9" };
    await database.db.insert(paymentAddresses).values({ ...(await row(inv.id)), network: dead.network, watchUntil: new Date(Date.now() + 60_000) });
    await expect(watchAddresses(database.db, dead, { client: readClient(dead), effect: addressPaymentEffect })).rejects.toThrow();
    expect((await addressWarnings(database.db)).join("\n")).toContain("eip155:99999: the last round failed");
    await database.db.delete(paymentAddresses).where(eq(paymentAddresses.network, dead.network));
    await watchAddresses(database.db, dead, { client: readClient(dead), effect: addressPaymentEffect });
    expect((await addressWarnings(database.db)).join("\n")).not.toContain("eip155:99999");
  });
});

/** USDC atomic units as the API writes them. */
function fmt(v: bigint): string {
  const s = v.toString().padStart(7, "0");
  const frac = s.slice(-6).replace(/0+$/, "");
  return frac ? `${s.slice(0, -6)}.${frac}` : s.slice(0, -6);
}
