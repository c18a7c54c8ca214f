import { and, desc, eq, lt } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/platform/db";
import { balanceTopups, ledgerEntries } from "@/lib/platform/db/schema";
import type { LedgerEntry } from "@/lib/merchants/ledger";

export const LEDGER_PAGE_SIZE = 25;

/** A ledger entry as the balance page shows it: with the USDC payment behind a top-up credit, when it was one. */
export type LedgerRow = LedgerEntry & { topup: { id: string; network: string; transaction: string } | null };

/** `?before=<entry id>`: the page of entries older than that one. Anything else is the newest page. */
export const ledgerPageQuery = z.object({
  before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional().catch(undefined),
});

/**
 * One page of the merchant's ledger, newest first, paged by entry id (stable while new entries arrive). `older` is
 * the `before` of the next page, or null on the last one.
 */
export async function ledgerPage(
  db: Db,
  merchantId: string,
  opts: { before?: number; limit?: number } = {},
): Promise<{ rows: LedgerRow[]; older: number | null }> {
  const limit = opts.limit ?? LEDGER_PAGE_SIZE;
  const found = await db
    .select({ entry: ledgerEntries, topup: { id: balanceTopups.id, network: balanceTopups.network, transaction: balanceTopups.transaction } })
    .from(ledgerEntries)
    .leftJoin(balanceTopups, eq(balanceTopups.ledgerEntryId, ledgerEntries.id))
    .where(and(eq(ledgerEntries.merchantId, merchantId), opts.before !== undefined ? lt(ledgerEntries.id, opts.before) : undefined))
    .orderBy(desc(ledgerEntries.id))
    .limit(limit + 1);
  const rows = found.slice(0, limit).map(({ entry, topup }) => ({ ...entry, topup: topup?.id ? (topup as LedgerRow["topup"]) : null }));
  return { rows, older: found.length > limit ? (rows.at(-1)?.id ?? null) : null };
}
