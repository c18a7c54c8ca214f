import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { importCatalog, type RejectedRow, STORE_GIFT_CARD_SLUG, catalogChanged } from "@/lib/catalog";
import type { UpstreamConfig } from "@/lib/platform/config";
import type { Db } from "@/lib/platform/db";
import { products, settings } from "@/lib/platform/db/schema";
import { log } from "@/lib/platform/log";
import { UpstreamRateLimited, UpstreamUnavailable, type UpstreamClient, type UpstreamProduct } from "./client";
import { errorText } from "@/lib/platform/errors";

const STATE_KEY = "upstream.sync";
const LEASE_KEY = "upstream.sync.lease";
/** The upstream's product quota (1,000 requests an hour over /products and /products/search), less a reserve. */
export const PRODUCT_QUOTA_PER_HOUR = 950;
const HOUR_MS = 3600_000;
/** After a failure that said no time to come back (a 5xx, a timeout), the sync tries again this much later. */
const FAILURE_PAUSE_MS = 60_000;
/** A sync holds the lease this long; one that died frees it when it lapses. */
const LEASE_MS = 2 * 60_000;

/** Where the sync stands, kept in a settings row, so that a 429 or a crash resumes where it stopped. */
export type SyncState = {
  /** The pass under way: when it started (products not seen since are gone upstream), the page to read next. */
  pass: { startedAt: string; next: string | null; pages: number; imported: number; rejected: number } | null;
  lastCompleteAt: string | null;
  /** Nothing is asked of the upstream before this (its rate limit, its quota, a pause after a failure). */
  resumeAt: string | null;
  /** Requests to /products in the current hour. */
  quota: { windowStart: string; requests: number };
  lastError: string | null;
};

export type SyncReport = {
  /** `complete`: a whole pass ended; `partial`: the page budget ran out (the next call goes on); `paused`: rate limit, quota or failure (resumes at `resume_at`); `not_due`; `busy`: another server syncs. */
  status: "complete" | "partial" | "paused" | "not_due" | "busy";
  pages: number;
  imported: number;
  rejected: RejectedRow[];
  /** Products marked unavailable because the upstream no longer lists them. */
  gone: number;
  resume_at: string | null;
  error: string | null;
};

export type SyncOptions = {
  /** Sync now, even when the last pass is recent (the admin route and command); a rate limit is still honoured. */
  force?: boolean;
  /** Pages read in this call at most (the upkeep round's share); the pass goes on at the next call. */
  maxPages?: number;
  now?: () => Date;
};

/**
 * Imports the upstream's catalog (`GET /products`, page by page through `meta._next`) into this shop's catalog, as
 * products of the `upstream` supplier with each package's cost, through the catalog import (lib/catalog/import.ts).
 * Each page is imported and the place is saved before the next is asked for, so a rate limit, a failure or a crash
 * resumes at the page after the last one imported. A pass that reaches the end marks the upstream products it did
 * not see as unavailable (never deleted: old orders keep them). Honours the upstream's rate limits (the client) and
 * its product quota (requests counted per hour here). Never throws for the upstream's sake: the report says.
 */
export async function syncUpstreamCatalog(
  db: Db,
  client: UpstreamClient,
  cfg: Pick<UpstreamConfig, "syncMinutes">,
  opts: SyncOptions = {},
): Promise<SyncReport> {
  const now = opts.now ?? (() => new Date());
  const report: SyncReport = { status: "not_due", pages: 0, imported: 0, rejected: [], gone: 0, resume_at: null, error: null };
  const state = await readState(db, now());
  if (state.resumeAt && Date.parse(state.resumeAt) > now().getTime()) {
    return { ...report, status: opts.force ? "paused" : "not_due", resume_at: state.resumeAt, error: state.lastError };
  }
  const due = opts.force || state.pass !== null || !state.lastCompleteAt || now().getTime() - Date.parse(state.lastCompleteAt) >= cfg.syncMinutes * 60_000;
  if (!due) return report;
  const holder = await takeLease(db, now());
  if (!holder) return { ...report, status: "busy" };
  try {
    state.pass ??= { startedAt: now().toISOString(), next: null, pages: 0, imported: 0, rejected: 0 };
    state.resumeAt = null;
    for (;;) {
      if (opts.maxPages !== undefined && report.pages >= opts.maxPages) {
        report.status = "partial";
        break;
      }
      if (!countRequest(state, now())) {
        state.resumeAt = new Date(Date.parse(state.quota.windowStart) + HOUR_MS).toISOString();
        state.lastError = "the upstream's product quota for this hour is spent";
        report.status = "paused";
        break;
      }
      let page: Awaited<ReturnType<UpstreamClient["products"]>>;
      try {
        page = await client.products(state.pass.next ?? undefined);
      } catch (err) {
        if (!(err instanceof UpstreamRateLimited || err instanceof UpstreamUnavailable)) throw err;
        state.resumeAt = new Date(err instanceof UpstreamRateLimited ? err.retryAt : now().getTime() + FAILURE_PAUSE_MS).toISOString();
        state.lastError = errorText(err);
        report.status = "paused";
        break;
      }
      // An upstream that is a shop like this one lists its own gift card: spendable there only, and this shop sells
      // its own under that slug (lib/catalog/store-products.ts). It is not resold.
      const listed = page.products.filter((p) => !p.is_test && p.id !== STORE_GIFT_CARD_SLUG);
      // The operator's own stock wins: a product sold from imported codes keeps its supplier and its page.
      const own = await ownStock(
        db,
        listed.map((p) => p.id),
      );
      const imported = await importCatalog(db, listed.filter((p) => !own.has(p.id)).map(toCatalogRow), { supplier: "upstream" });
      report.pages++;
      report.imported += imported.imported;
      report.rejected.push(
        ...imported.rejected,
        ...[...own].map((slug) => ({ row: 0, slug, errors: ["sold from the shop's own stock: not replaced by the upstream's"] })),
      );
      state.pass = {
        ...state.pass,
        next: page.next ?? null,
        pages: state.pass.pages + 1,
        imported: state.pass.imported + imported.imported,
        rejected: state.pass.rejected + imported.rejected.length,
      };
      if (!page.next) {
        report.gone = await markGone(db, new Date(state.pass.startedAt), now());
        log.info({ pages: state.pass.pages, imported: state.pass.imported, rejected: state.pass.rejected, gone: report.gone }, "upstream catalog synced");
        state.pass = null;
        state.lastCompleteAt = now().toISOString();
        state.lastError = null;
        report.status = "complete";
        break;
      }
      await writeState(db, state, now());
    }
    await writeState(db, state, now());
  } finally {
    await releaseLease(db, holder);
  }
  if (report.rejected.length > 0)
    log.warn({ rejected: report.rejected.slice(0, 5), count: report.rejected.length }, "upstream products this shop cannot sell were skipped");
  if (report.status === "paused") log.warn({ resume_at: state.resumeAt, reason: state.lastError }, "upstream catalog sync paused");
  return { ...report, resume_at: state.resumeAt, error: state.lastError };
}

/** The sync's state as stored (a fresh one when none is). */
export async function readState(db: Db, now: Date): Promise<SyncState> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, STATE_KEY));
  const fresh: SyncState = { pass: null, lastCompleteAt: null, resumeAt: null, quota: { windowStart: now.toISOString(), requests: 0 }, lastError: null };
  return row ? { ...fresh, ...(row.value as Partial<SyncState>) } : fresh;
}

async function writeState(db: Db, state: SyncState, now: Date): Promise<void> {
  await db
    .insert(settings)
    .values({ key: STATE_KEY, value: state, updatedAt: now })
    .onConflictDoUpdate({ target: settings.key, set: { value: state, updatedAt: now } });
}

/** Counts one request to /products in the hour's window; false when the quota is spent. */
function countRequest(state: SyncState, now: Date): boolean {
  if (now.getTime() - Date.parse(state.quota.windowStart) >= HOUR_MS) state.quota = { windowStart: now.toISOString(), requests: 0 };
  if (state.quota.requests >= PRODUCT_QUOTA_PER_HOUR) return false;
  state.quota.requests++;
  return true;
}

/** One server syncs at a time: a lease in the settings table, taken when free or lapsed. */
async function takeLease(db: Db, now: Date): Promise<string | undefined> {
  const holder = `${process.pid}-${now.getTime()}-${Math.random().toString(36).slice(2, 8)}`;
  const until = new Date(now.getTime() + LEASE_MS).toISOString();
  const taken = await db
    .insert(settings)
    .values({ key: LEASE_KEY, value: { holder, until }, updatedAt: now })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value: { holder, until }, updatedAt: now },
      setWhere: sql`(${settings.value}->>'until') IS NULL OR (${settings.value}->>'until')::timestamptz < ${now.toISOString()}::timestamptz`,
    })
    .returning({ key: settings.key });
  return taken.length > 0 ? holder : undefined;
}

async function releaseLease(db: Db, holder: string): Promise<void> {
  await db
    .update(settings)
    .set({ value: { holder: null, until: null } })
    .where(and(eq(settings.key, LEASE_KEY), sql`${settings.value}->>'holder' = ${holder}`));
}

/** Which of these slugs are products the operator sells from imported codes. */
async function ownStock(db: Db, slugs: string[]): Promise<Set<string>> {
  if (slugs.length === 0) return new Set();
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(inArray(products.id, slugs), eq(products.supplier, "inventory")));
  return new Set(rows.map((r) => r.id));
}

/** Upstream products not seen by the pass that started at `startedAt`: unavailable from now on, kept for their orders. */
async function markGone(db: Db, startedAt: Date, now: Date): Promise<number> {
  const gone = await db
    .update(products)
    .set({ inStock: false, updatedAt: now })
    .where(and(eq(products.supplier, "upstream"), lt(products.updatedAt, startedAt), eq(products.inStock, true)))
    .returning({ id: products.id });
  if (gone.length > 0) {
    catalogChanged(db);
    log.info({ products: gone.map((g) => g.id).slice(0, 20), count: gone.length }, "products gone upstream are unavailable");
  }
  return gone.length;
}

const KINDS = { gift_card: "gift_card", phone_refill: "topup", esim: "esim" } as const;

/**
 * An upstream product as a row of the catalog import (lib/catalog/product-input.ts): every package with its cost (the
 * upstream's price in cents) and whether the upstream can deliver it now (a package out of stock there is shown sold
 * out here, and refused at checkout), an open range with its cost rate (the upstream's `price_rate`, US dollars per
 * unit: an amount is never sold below it plus the margin), an eSIM's bundles and countries. The picture is the shop's own.
 */
export function toCatalogRow(p: UpstreamProduct): Record<string, unknown> {
  const packages = p.packages.map((pkg) => ({
    value: pkg.value,
    faceValue: decimal(pkg.amount),
    ...(pkg.data_mb != null ? { dataMb: pkg.data_mb } : {}),
    ...(pkg.validity_days != null ? { validityDays: pkg.validity_days } : {}),
    costCents: pkg.price,
    inStock: pkg.in_stock,
  }));
  const range = p.range
    ? { min: decimal(p.range.min), max: decimal(p.range.max), step: decimal(p.range.step), costRate: decimal(p.range.price_rate) }
    : undefined;
  return {
    slug: p.id,
    name: p.name,
    kind: KINDS[p.type],
    brand: p.brand,
    ...(p.country_code ? { country: p.country_code } : {}),
    ...(p.coverage?.length ? { coverage: p.coverage } : {}),
    ...(p.region ? { region: p.region } : {}),
    currency: p.currency,
    categories: p.categories.slice(0, 12),
    description: p.description.trim() || p.name,
    redemptionInstructions: p.redemption_instructions.trim() || "Redeem the code with the brand.",
    recipientType: p.recipient_type,
    inStock: p.in_stock && (range !== undefined || p.packages.some((pkg) => pkg.in_stock)),
    packages,
    ...(range ? { range } : {}),
  };
}

/**
 * A JSON number as the plain decimal string the catalog import reads ("25", "0.0125"), never in exponent form; the
 * import refuses what is not a positive decimal (a product with such an amount is skipped, and the report says why).
 */
function decimal(n: number): string {
  const plain = String(n);
  return /e/i.test(plain) ? n.toFixed(12).replace(/\.?0+$/, "") : plain;
}
