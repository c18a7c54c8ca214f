import { and, eq, sql } from "drizzle-orm";
import { config } from "@/lib/platform/config";
import type { Db } from "@/lib/platform/db";
import { productPackages, products, upstreamPurchases } from "@/lib/platform/db/schema";
import { currencyExponent, rangeCostCents, catalogChanged } from "@/lib/catalog";
import { parseMinorUnits, usdcToDecimal, centsToUsdc } from "@/lib/platform/money";
import type { Delivery, FulfilmentProvider, OrderToFulfil, Redemption } from "@/lib/fulfilment";
import { logFor } from "@/lib/platform/log";
import { UpstreamRateLimited, UpstreamRefusal, UpstreamUnavailable, type UpstreamClient, type UpstreamInvoice, type UpstreamOrder } from "./client";
import { upstreamClient } from "./index";

type Purchase = typeof upstreamPurchases.$inferSelect;

export type PurchaseOptions = {
  /** How long an order waits for the upstream balance (`balance_too_low`) before it fails and is refunded (UPSTREAM_HOLD_MINUTES). */
  holdMs: number;
  /** How long an upstream that does not answer is waited for before an order it never took fails (and is refunded). */
  unreachableMs?: number;
  /** The first wait before asking the upstream again (doubles with each attempt, at most `maxPollMs`). */
  pollMs?: number;
  maxPollMs?: number;
  now?: () => Date;
  /** Where the upstream sends its signed final invoice (`/api/upstream/webhook`): a faster path than the polling. */
  webhookUrl?: string;
};

/** How often a held order (`balance_too_low`) tries again, whatever the polling: a top-up is picked up within a minute. */
const HOLD_RETRY_MS = 60_000;
/** The longest wait between two reads of an unfinished upstream purchase (UPSTREAM_POLL_SECONDS when longer). */
const DEFAULT_MAX_POLL_MS = 5 * 60_000;

/** An order the upstream took is waited for this long at most (its codes may come late); then it fails and is refunded. */
const BOUGHT_WAIT_MS = 24 * 3600_000;

/** The provider of the configured upstream's orders, over `db` (lib/supply's `upstreamProvider` loads it for each order). */
export function configuredUpstreamProvider(db: Db): FulfilmentProvider {
  const c = config().upstream;
  const client = upstreamClient(c);
  if (!c || !client) {
    return {
      deliver: async () => ({ failed: true, errorCode: "NO_SUPPLIER", message: "No upstream supplier is configured any more; the order is refunded." }),
    };
  }
  const pollMs = c.pollSeconds * 1000;
  return createUpstreamProvider(db, client, {
    holdMs: c.holdMinutes * 60_000,
    pollMs,
    maxPollMs: Math.max(pollMs, DEFAULT_MAX_POLL_MS),
    webhookUrl: c.webhook?.url,
  });
}

/**
 * Buys an order from the upstream: one `POST /invoices` (`payment_method: "balance"`, `auto_pay: true`) under the
 * Idempotency-Key of the order's id, then the outcome by `GET /invoices/{id}` and the codes by `GET /orders/{id}`
 * (`redemption_info`). The purchase row is written before the upstream is asked and keeps the upstream invoice's id
 * once known, so a crash, a timeout or a second worker asks again under the same key and gets the same invoice: never
 * two. Only a definite refusal (`balance_too_low`: the upstream denied the invoice, nothing was bought) moves to a new
 * key (`<order id>.<n>`), after the operator topped up. An upstream order that failed or was refunded fails the
 * order (the shop refunds the buyer); `balance_too_low` holds it for `holdMs`, then fails it.
 */
export function createUpstreamProvider(db: Db, client: UpstreamClient, opts: PurchaseOptions): FulfilmentProvider {
  const now = opts.now ?? (() => new Date());
  const pollMs = opts.pollMs ?? 2_000;
  const maxPollMs = opts.maxPollMs ?? DEFAULT_MAX_POLL_MS;
  const unreachableMs = opts.unreachableMs ?? opts.holdMs;

  return {
    async deliver(order: OrderToFulfil): Promise<Delivery> {
      const about = logFor({ order_id: order.id, invoice_id: order.invoiceId });
      let p = await purchaseOf(db, order.id, now());
      // Each ask waits longer than the last: the upstream's invoice and order reads are limited to 60 per 10 minutes.
      const wait = (message: string): Delivery => ({ pending: true, retryInMs: Math.min(pollMs * 2 ** Math.min(p.asks - 1, 16), maxPollMs), message });
      const unanswered = async (err: Error): Promise<Delivery> => {
        if (err instanceof UpstreamRateLimited) return { pending: true, retryInMs: Math.max(1_000, err.retryAt - now().getTime()), message: err.message };
        const bound = p.upstreamInvoiceId ? BOUGHT_WAIT_MS : unreachableMs;
        if (now().getTime() - p.createdAt.getTime() > bound) {
          return finish(db, p, { failed: true, errorCode: "UPSTREAM_UNAVAILABLE", message: `The supplier did not answer in time: ${err.message}` });
        }
        await note(db, p, err.message, now());
        return wait(`The supplier did not answer (${err.message}); asking again.`);
      };

      let invoice: UpstreamInvoice;
      if (!p.upstreamInvoiceId) {
        const key = p.attempt === 0 ? order.id : `${order.id}.${p.attempt}`;
        let request = p.request;
        if (!request) {
          request = JSON.stringify(invoiceRequest(order, opts.webhookUrl));
          await db
            .update(upstreamPurchases)
            .set({ request })
            .where(and(eq(upstreamPurchases.orderId, p.orderId), eq(upstreamPurchases.attempt, p.attempt)));
        }
        try {
          invoice = await client.createInvoice(request, key);
        } catch (err) {
          if (err instanceof UpstreamRefusal) {
            if (err.code === "balance_too_low") return hold(err.message);
            if (err.code === "idempotency_key_in_use") return wait("The supplier is still answering the first request.");
            if (err.status === 401 || err.status === 403 || err.status === 409) return unanswered(err);
            return finish(db, p, { failed: true, errorCode: "UPSTREAM_REFUSED", message: `The supplier refused the order (${err.code}): ${err.message}` });
          }
          if (err instanceof UpstreamUnavailable || err instanceof UpstreamRateLimited) return unanswered(err);
          throw err;
        }
        const mine = invoice.orders[0];
        const [updated] = await db
          .update(upstreamPurchases)
          .set({
            upstreamInvoiceId: invoice.id,
            upstreamOrderId: mine?.id ?? null,
            costCents: BigInt(invoice.payment.price),
            lastError: null,
            updatedAt: now(),
          })
          .where(eq(upstreamPurchases.orderId, order.id))
          .returning();
        p = updated ?? p;
        about.info({ upstream_invoice_id: invoice.id, cost_cents: invoice.payment.price, key }, "bought upstream");
        await learnCost(db, order, invoice.payment.price, now());
      } else {
        try {
          invoice = await client.invoice(p.upstreamInvoiceId);
        } catch (err) {
          if (err instanceof UpstreamRefusal || err instanceof UpstreamUnavailable || err instanceof UpstreamRateLimited) return unanswered(err);
          throw err;
        }
      }

      switch (invoice.status) {
        case "denied":
          if (invoice.status_reason === "balance_too_low") return hold("The supplier's balance was too low.");
          return finish(db, p, {
            failed: true,
            errorCode: "UPSTREAM_DENIED",
            message: `The supplier denied the order (${invoice.status_reason ?? "denied"}).`,
          });
        case "payment_error":
          return finish(db, p, { failed: true, errorCode: "UPSTREAM_PAYMENT_ERROR", message: "The supplier could not take its payment." });
        case "complete":
          break;
        default:
          return wait(`The supplier is delivering (its invoice is ${invoice.status}).`);
      }
      const line = invoice.orders.find((o) => o.id === p.upstreamOrderId) ?? invoice.orders[0];
      if (!line) return finish(db, p, { failed: true, errorCode: "UPSTREAM_FAILED", message: "The supplier's invoice holds no order." });
      if (line.status === "failed" || line.status === "refunded") {
        return finish(db, p, {
          failed: true,
          errorCode: "UPSTREAM_FAILED",
          message: `The supplier's order ${line.status}${line.error ? `: ${line.error}` : ""}.`,
        });
      }
      if (line.status !== "delivered") return wait(`The supplier's order is ${line.status}.`);
      let detail: UpstreamOrder;
      try {
        detail = await client.order(line.id);
      } catch (err) {
        if (err instanceof UpstreamRefusal || err instanceof UpstreamUnavailable || err instanceof UpstreamRateLimited) return unanswered(err);
        throw err;
      }
      if (!detail.redemption_info) return wait("The supplier's order is delivered; its codes are not readable yet.");
      return finish(db, p, { failed: false, redemption: redemptionOf(detail.redemption_info, order) });

      /**
       * The upstream's balance cannot pay: nothing was bought (its invoice is denied), so the next try may use a new
       * key, once the operator topped up. Until `holdMs` after the first refusal; then the order fails.
       */
      async function hold(reason: string): Promise<Delivery> {
        const since = p.heldSince ?? now();
        if (now().getTime() - since.getTime() >= opts.holdMs) {
          about.warn({ held_since: since.toISOString() }, "the supplier's balance stayed too low: the order fails and is refunded");
          return finish(db, p, { failed: true, errorCode: "UPSTREAM_BALANCE_TOO_LOW", message: `The supplier's balance stayed too low: ${reason}` });
        }
        await db
          .update(upstreamPurchases)
          .set({
            status: "held",
            heldSince: since,
            attempt: p.attempt + 1,
            request: null,
            upstreamInvoiceId: null,
            upstreamOrderId: null,
            lastError: reason,
            updatedAt: now(),
          })
          .where(and(eq(upstreamPurchases.orderId, p.orderId), eq(upstreamPurchases.attempt, p.attempt)));
        about.warn({ held_since: since.toISOString() }, "held: the supplier's balance is too low (top it up)");
        return {
          pending: true,
          retryInMs: Math.min(HOLD_RETRY_MS, Math.max(1, opts.holdMs)),
          message: `Held until the supplier's balance is topped up: ${reason}`,
        };
      }
    },
  };
}

/**
 * What the upstream charged is its cost now: a package whose cost moved since the last sync is repriced at once, so
 * the next invoice locks a price over the new cost rather than wait for the next pass. An amount of an open range that
 * cost more than its rate said raises the rate (the next sync sets the upstream's published one again).
 */
async function learnCost(db: Db, order: OrderToFulfil, costCents: number, now: Date): Promise<void> {
  const cost = BigInt(costCents);
  const changed = await db
    .update(productPackages)
    .set({ costCents: cost })
    .where(
      and(
        eq(productPackages.productId, order.productId),
        eq(productPackages.value, order.packageValue),
        sql`${productPackages.costCents} IS DISTINCT FROM ${cost}`,
      ),
    )
    .returning({ productId: productPackages.productId });
  if (changed.length === 0 && !(await learnRangeCost(db, order, cost, now))) return;
  // The products table's stamp tells every server's catalog snapshot.
  await db
    .update(products)
    .set({ updatedAt: now })
    .where(and(eq(products.id, order.productId), eq(products.supplier, "upstream")));
  catalogChanged(db);
  logFor({ order_id: order.id }).warn(
    { product_id: order.productId, value: order.packageValue, cost_cents: costCents },
    "the upstream's cost changed: repriced",
  );
}

/** For an amount of an open range: raises the product's cost rate when the upstream charged more than it says. */
async function learnRangeCost(db: Db, order: OrderToFulfil, cost: bigint, now: Date): Promise<boolean> {
  const [row] = await db
    .select({
      currency: products.currency,
      rate: products.rangeCostRate,
      isPackage: sql<boolean>`exists (select 1 from ${productPackages} where ${productPackages.productId} = ${products.id} and ${productPackages.value} = ${order.packageValue})`,
    })
    .from(products)
    .where(and(eq(products.id, order.productId), eq(products.supplier, "upstream")));
  if (!row || row.rate === null || row.isPackage) return false;
  const exponent = currencyExponent(row.currency) ?? 2;
  const minor = parseMinorUnits(order.packageValue, exponent);
  if (minor === undefined || minor <= 0n) return false;
  if (cost <= (rangeCostCents(minor, row.rate, row.currency) ?? 0n)) return false;
  // Millionths of a dollar per unit, rounded up: the amount bought at the new rate costs at least what it cost.
  const rate = usdcToDecimal((centsToUsdc(cost) * 10n ** BigInt(exponent) + minor - 1n) / minor);
  const raised = await db
    .update(products)
    .set({ rangeCostRate: rate, updatedAt: now })
    .where(and(eq(products.id, order.productId), eq(products.rangeCostRate, row.rate)))
    .returning({ id: products.id });
  return raised.length > 0;
}

/** The row of the order's purchase, made before the upstream is first asked, with this ask counted. */
async function purchaseOf(db: Db, orderId: string, now: Date): Promise<Purchase> {
  const [row] = await db
    .insert(upstreamPurchases)
    .values({ orderId, asks: 1, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: upstreamPurchases.orderId, set: { asks: sql`${upstreamPurchases.asks} + 1`, updatedAt: now } })
    .returning();
  return row!;
}

async function note(db: Db, p: Purchase, error: string, now: Date): Promise<void> {
  await db
    .update(upstreamPurchases)
    .set({ lastError: error.slice(0, 500), updatedAt: now })
    .where(eq(upstreamPurchases.orderId, p.orderId));
}

async function finish(db: Db, p: Purchase, delivery: Delivery): Promise<Delivery> {
  const failed = "failed" in delivery && delivery.failed;
  await db
    .update(upstreamPurchases)
    .set({ status: failed ? "failed" : "delivered", lastError: failed ? delivery.message.slice(0, 500) : null, updatedAt: new Date() })
    .where(eq(upstreamPurchases.orderId, p.orderId));
  return delivery;
}

/** The upstream invoice for one order: its product and value, its recipient where it has one. */
function invoiceRequest(order: OrderToFulfil, webhookUrl: string | undefined): Record<string, unknown> {
  const recipient =
    order.recipient === null
      ? {}
      : order.kind === "topup"
        ? { phone_number: order.recipient }
        : order.kind === "esim"
          ? { esim_id: order.recipient }
          : order.recipientType === "email"
            ? { email: order.recipient }
            : {};
  return {
    products: [{ product_id: order.productId, value: order.packageValue, quantity: 1, ...recipient }],
    payment_method: "balance",
    auto_pay: true,
    ...(webhookUrl ? { webhook_url: webhookUrl } : {}),
  };
}

/** The upstream's `redemption_info` as this shop's redemption (shown to the buyer as the shop's own codes). */
function redemptionOf(info: NonNullable<UpstreamOrder["redemption_info"]>, order: OrderToFulfil): Redemption {
  const text = (v: string | undefined) => (v !== undefined && v !== "" ? v : undefined);
  const r: Redemption = { extra_fields: {} };
  for (const [k, v] of Object.entries(info.extra_fields)) {
    if (v !== null && v !== undefined) r.extra_fields[k] = typeof v === "string" ? v : JSON.stringify(v);
  }
  if (text(info.code)) r.code = info.code;
  if (text(info.pin)) r.pin = info.pin;
  if (text(info.link)) r.link = info.link;
  if (text(info.other)) r.other = info.other;
  if (text(info.expiration_date)) r.expiration_date = info.expiration_date;
  const instructions = text(info.instructions) ?? order.redemptionInstructions ?? undefined;
  if (instructions) r.instructions = instructions;
  if (info.barcode_format === "QRCODE" && text(info.barcode_value)) {
    r.barcode_format = "QRCODE";
    r.barcode_value = info.barcode_value;
  }
  return r;
}
