import {
  invalidParam,
  notFound,
  ok,
  V2Error,
  v2ErrorOf,
  nextOffsetPage,
  nextPage,
  listEsimsQuery,
  listInvoicesQuery,
  listOrdersQuery,
  readQuery,
  rateLimitedResponse,
  idempotent,
  type IdempotencyKey,
  type StoredAnswer,
} from "@/lib/api/merchant";
import { DomainError } from "@/lib/platform/errors";
import { config } from "@/lib/platform/config";
import type { Db } from "@/lib/platform/db";
import { parseWebhookUrl } from "@/lib/webhooks";
import type { MerchantContext } from "@/lib/api/merchant";
import { readText } from "@/lib/platform/http/body";
import { isWrongCode } from "@/lib/gift-cards";
import { clientIp } from "@/lib/api/x402";
import { getRateLimiter } from "@/lib/platform/ratelimit";
import { getProducts, isIccid } from "@/lib/catalog";
import { kickWorker } from "@/lib/fulfilment";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { isInvoiceId, isOrderId } from "@/lib/platform/ids";
import { denyUnpaid } from "@/lib/checkout/payment";
import { createMerchantInvoice, parseInvoiceRequest } from "./create";
import { runAfterCommit } from "@/lib/platform/events";
import { payFromBalance } from "@/lib/checkout/pay-from-balance";
import {
  getMerchantEsim,
  getMerchantInvoice,
  getMerchantOrder,
  listMerchantEsims,
  listMerchantInvoices,
  listMerchantOrders,
  merchantEsim,
} from "@/lib/checkout/merchant-invoices";
import { merchantOrder } from "@/lib/checkout/merchant-invoice-view";
import { invoiceObject } from "@/lib/checkout/merchant-invoice-object";
import { paymentAddressesOf } from "@/lib/checkout/address-payment";
import { BALANCE_METHODS, unavailableMethod } from "@/lib/merchants";
import { getPayments, type PaymentAddressRow } from "@/lib/payments";
import type { invoices, orders } from "@/lib/platform/db/schema";

type InvoiceRow = typeof invoices.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

/**
 * `POST /invoices` and `POST /esims` (eSIM products only): creates the invoice and, with `auto_pay` and the balance,
 * pays it at once. With an `Idempotency-Key` header the first answer is replayed for the same request.
 */
export function createInvoiceHandler(only?: "esim") {
  return async (req: Request, ctx: MerchantContext): Promise<Response> => {
    const text = await readText(req);
    const answerFor = async (db: Db, invoiceId: string): Promise<StoredAnswer> => {
      const found = await getMerchantInvoice(db, ctx.merchant.id, invoiceId);
      return {
        status: 200,
        body: { meta: { _endpoint: ctx.endpoint, id: invoiceId }, data: await invoiceJson(db, found!.invoice, found!.orders, originOf(ctx)) },
      };
    };
    // In the transaction that makes the invoice (or, for a retry that resumes one, a transaction of its own): pays it
    // when the request asked for auto_pay from the balance (only while it is unpaid: a gift card may have paid it all),
    // and stores the answer with the debit. An outage or a crash at any point leaves the invoice made and paid with its
    // answer stored, or nothing at all: never an unpaid auto_pay invoice behind an error.
    const complete = async (tx: Db, invoiceId: string, request: ReturnType<typeof parseInvoiceRequest>, key: IdempotencyKey, after: (() => void)[]) => {
      let answer: StoredAnswer | undefined;
      if (request.autoPay && BALANCE_METHODS.includes(request.paymentMethod)) {
        if ((await getMerchantInvoice(tx, ctx.merchant.id, invoiceId))?.invoice.status === "unpaid") {
          try {
            await payFromBalance(tx, ctx.merchant.id, invoiceId);
            after.push(kickWorker);
          } catch (caught) {
            // auto_pay is part of the creation: refused, the invoice ends denied with the reason (its webhook goes
            // out), its orders failed, and it holds no stock.
            const err = caught instanceof DomainError ? v2ErrorOf(caught) : undefined;
            if (!err) throw caught;
            await denyUnpaid(tx, invoiceId, { code: err.code, message: err.message }, new Date(), after);
            answer = {
              status: err.status,
              body: { meta: { _endpoint: ctx.endpoint, id: invoiceId }, error_code: err.code, message: err.message, ...err.details, invoice_id: invoiceId },
            };
          }
        }
      }
      answer ??= await answerFor(tx, invoiceId);
      await key.storeAnswer(tx, answer);
      return answer;
    };
    // A gift card code is a try of the account and the address: counted before anything (a 429 is no answer an
    // Idempotency-Key keeps), and given back unless the code named no card.
    const guess = { ip: clientIp(req), holder: `merchant:${ctx.merchant.id}` };
    const tried = giftCardCodeIn(text);
    if (tried) {
      const decision = await (await getRateLimiter()).consumeGiftCardGuess(guess);
      if (!decision.allowed) return rateLimitedResponse(ctx.endpoint, decision);
    }
    let wrongCode = false;
    const answer = await idempotent(
      ctx.db,
      ctx.merchant.id,
      req.headers.get("idempotency-key"),
      { method: "POST", endpoint: ctx.endpoint, body: text },
      async (key) => {
        const request = parseInvoiceRequest(text);
        const payments = await getPayments();
        const unavailable = unavailableMethod(request.paymentMethod, [...payments.networks, ...payments.addressNetworks], config().networkMode);
        if (unavailable) throw new V2Error(400, "unsupported_payment_method", unavailable);
        if (request.webhookUrl) {
          // The URL's own checks here (scheme, credentials, address literals); its host is resolved and checked before
          // every send, so creation does not wait on DNS. Stored as parsed (normalized).
          const check = parseWebhookUrl(request.webhookUrl, config().networkMode);
          if (!check.ok) throw invalidParam("webhook_url", check.reason);
          request.webhookUrl = check.url.href;
        }
        if (only === "esim") {
          const products = await getProducts([...new Set(request.items.map((i) => i.product_id))], ctx.db);
          const other = products.find((p) => p.kind !== "esim");
          if (other) throw new V2Error(400, "invalid_param", `Invalid parameter products: ${other.slug} is not an eSIM; buy it with POST /invoices.`);
        }
        // The key is bound to the invoice, the invoice paid and the answer stored in the transaction that makes it.
        let answer: StoredAnswer | undefined;
        const after: (() => void)[] = [];
        const created = await createMerchantInvoice(ctx.db, ctx.merchant.id, request, async (tx, invoiceId) => {
          await key.bindInvoice(tx, invoiceId);
          answer = await complete(tx, invoiceId, request, key, after);
        }).catch((err: unknown) => {
          wrongCode = isWrongCode(err);
          throw err;
        });
        if (created.paidByCard) after.push(kickWorker);
        runAfterCommit(after);
        return answer!;
      },
      // A key bound to an invoice whose answer was never stored (made before auto_pay joined the creation's transaction).
      async (invoiceId, key) => {
        const after: (() => void)[] = [];
        const answer = await ctx.db.transaction((tx) => complete(tx as unknown as Db, invoiceId, parseInvoiceRequest(text), key, after));
        runAfterCommit(after);
        return answer;
      },
    ).finally(async () => {
      if (tried && !wrongCode) await (await getRateLimiter()).forgiveGiftCardGuess(guess);
    });
    return jsonResponse(answer.body, { status: answer.status, headers: answer.replayed ? { "Idempotent-Replayed": "true" } : undefined });
  };
}

/** Whether a creation body names a gift card code (read before the request runs, to count the try). */
function giftCardCodeIn(text: string): boolean {
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === "object" && body !== null && typeof (body as { gift_card_code?: unknown }).gift_card_code === "string";
  } catch {
    return false;
  }
}

/** The invoice object (lib/checkout/merchant-invoice-object.ts), with how to pay it while it can be paid. */
export function invoiceJson(db: Db, inv: InvoiceRow, items: OrderRow[], origin: string, addresses?: Map<string, PaymentAddressRow>) {
  return invoiceObject(db, inv, items, { origin, addresses });
}

const originOf = (ctx: MerchantContext) => new URL(ctx.apiBase).origin;

function invoiceId(ctx: MerchantContext): string {
  const id = ctx.params.id ?? "";
  if (!isInvoiceId(id)) throw notFound(`Invoice ${id}`);
  return id;
}

/** The merchant's invoice of the route's id; for the eSIM routes (`esim`) only one that holds an eSIM. Else 404. */
async function routeInvoice(ctx: MerchantContext, only?: "esim") {
  const id = invoiceId(ctx);
  const found = await getMerchantInvoice(ctx.db, ctx.merchant.id, id);
  if (!found || (only === "esim" && !found.orders.some((o) => o.productKind === "esim"))) {
    throw notFound(only === "esim" ? `eSIM invoice ${id}` : `Invoice ${id}`);
  }
  return { id, ...found };
}

/** `GET /invoices/{id}`, and `GET /esims/invoice/{id}` with `only` "esim" (an invoice that holds no eSIM is not found there). */
export function getInvoiceHandler(only?: "esim") {
  return async (_req: Request, ctx: MerchantContext): Promise<Response> => {
    const found = await routeInvoice(ctx, only);
    return ok(ctx.endpoint, await invoiceJson(ctx.db, found.invoice, found.orders, originOf(ctx)), { id: found.id });
  };
}

/** `POST /invoices/{id}/pay`, and `POST /esims/invoice/{id}/pay` with `only` "esim": pays from the balance, answers the invoice. */
export function payInvoiceHandler(only?: "esim") {
  return async (_req: Request, ctx: MerchantContext): Promise<Response> => {
    const id = only === "esim" ? (await routeInvoice(ctx, only)).id : invoiceId(ctx);
    await payFromBalance(ctx.db, ctx.merchant.id, id);
    kickWorker();
    const found = await getMerchantInvoice(ctx.db, ctx.merchant.id, id);
    return ok(ctx.endpoint, await invoiceJson(ctx.db, found!.invoice, found!.orders, originOf(ctx)), { id });
  };
}

/** `GET /invoices`: newest first, `after`/`before` an invoice id (or `start`), `meta._next` to the next older page. */
export function listInvoicesHandler() {
  return async (req: Request, ctx: MerchantContext): Promise<Response> => {
    const url = new URL(req.url);
    const q = readQuery(url, listInvoicesQuery);
    const rows = await listMerchantInvoices(ctx.db, ctx.merchant.id, q);
    const last = rows.at(-1);
    const next = rows.length === q.limit && last ? nextPage(url, ctx.apiBase, { before: undefined, start: undefined, after: last.invoice.id }) : undefined;
    const addresses = await paymentAddressesOf(
      ctx.db,
      rows.map((r) => r.invoice.id),
    );
    return ok(ctx.endpoint, await Promise.all(rows.map((r) => invoiceJson(ctx.db, r.invoice, r.orders, originOf(ctx), addresses))), {
      limit: q.limit,
      count: rows.length,
      ...(q.after ? { after: q.after } : {}),
      ...(q.before ? { before: q.before } : {}),
      ...(next ? { _next: next } : {}),
    });
  };
}

/** `GET /orders`: newest first, `start`/`limit`, `meta._next`. */
export async function listOrdersHandler(req: Request, ctx: MerchantContext): Promise<Response> {
  const url = new URL(req.url);
  const q = readQuery(url, listOrdersQuery);
  const { rows, total } = await listMerchantOrders(ctx.db, ctx.merchant.id, q);
  const next = nextOffsetPage(url, ctx.apiBase, { start: q.start, limit: q.limit, count: rows.length, total });
  return ok(
    ctx.endpoint,
    rows.map((o) => merchantOrder(o)),
    { start: q.start, limit: q.limit, count: rows.length, total, ...(next ? { _next: next } : {}) },
  );
}

/** `GET /orders/{id}`: the order with its `redemption_info` once delivered. */
export async function getOrderHandler(_req: Request, ctx: MerchantContext): Promise<Response> {
  const id = ctx.params.id ?? "";
  const order = isOrderId(id) ? await getMerchantOrder(ctx.db, ctx.merchant.id, id) : null;
  if (!order) throw notFound(`Order ${id}`);
  return ok(ctx.endpoint, merchantOrder(order, { redemption: true }), { id });
}

/**
 * `GET /esims`: the eSIMs the merchant bought, newest first, with their bundles; `start`/`limit`, `meta._next`. A page
 * is cut from the whole list: an eSIM's bundles are spread over its orders, and a merchant holds few enough eSIMs.
 */
export async function listEsimsHandler(req: Request, ctx: MerchantContext): Promise<Response> {
  const url = new URL(req.url);
  const q = readQuery(url, listEsimsQuery);
  const esims = await listMerchantEsims(ctx.db, ctx.merchant.id);
  const page = esims.slice(q.start, q.start + q.limit);
  const next = nextOffsetPage(url, ctx.apiBase, { start: q.start, limit: q.limit, count: page.length, total: esims.length });
  return ok(
    ctx.endpoint,
    page.map((e) => merchantEsim(e)),
    { start: q.start, limit: q.limit, count: page.length, total: esims.length, ...(next ? { _next: next } : {}) },
  );
}

/** `GET /esims/{id}`: one eSIM by its ICCID. */
export async function getEsimHandler(_req: Request, ctx: MerchantContext): Promise<Response> {
  const iccid = (ctx.params.id ?? "").replace(/[\s-]/g, "");
  const esim = isIccid(iccid) ? await getMerchantEsim(ctx.db, ctx.merchant.id, iccid) : null;
  if (!esim) throw notFound(`eSIM ${ctx.params.id}`);
  return ok(ctx.endpoint, merchantEsim(esim), { id: iccid });
}
