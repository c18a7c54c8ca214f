import { randomUUID } from "node:crypto";
import { stringify } from "csv-stringify/sync";
import { z } from "zod";
import { currencyExponent } from "@/lib/catalog";
import type { FxSource } from "@/lib/catalog";
import type { Db } from "@/lib/platform/db";
import { DomainError } from "@/lib/platform/errors";
import { batchCards, BATCH_MAX_QUANTITY, createBatch, getBatch, issueBatch, listBatches, type Batch, type IssuedCard } from "@/lib/merchants";
import { formatCardValue } from "@/lib/gift-cards";
import { idPattern } from "@/lib/platform/ids";
import { centsToDecimal } from "@/lib/platform/money";
import { defuseFormula } from "./orders-csv";

/** The request key of the form's purchase: the merchant API's Idempotency-Key, in a namespace of the dashboard's. */
export const BATCH_REQUEST_KEY = /^dashboard:[0-9a-f-]{36}$/;

/** A new key for the form's next purchase. */
export function newBatchRequestKey(): string {
  return `dashboard:${randomUUID()}`;
}

/** Batches per page of the dashboard's list. */
export const BATCHES_PAGE_SIZE = 20;

const BATCH_ID = idPattern("gcb");

/** The list's query: `after`, the id of the last batch of the page before (older ones follow). Anything else is ignored. */
export const batchListQuery = z.object({
  after: z
    .string()
    .optional()
    .catch(undefined)
    .transform((v) => (v && BATCH_ID.test(v) ? v : undefined)),
});

/** One page of the merchant's batches, newest first, and the cursor of the next (older) page when there is one. */
export async function batchesPage(db: Db, merchantId: string, page: { after?: string }): Promise<{ rows: Batch[]; older: string | null }> {
  const rows = await listBatches(db, merchantId, { limit: BATCHES_PAGE_SIZE + 1, after: page.after });
  const shown = rows.slice(0, BATCHES_PAGE_SIZE);
  return { rows: shown, older: rows.length > BATCHES_PAGE_SIZE ? shown.at(-1)!.id : null };
}

/** A card's or a batch's value in its currency's own decimals ("25.00", "1000" for yen). */
export const batchValue = (minor: bigint, currency: string) => formatCardValue(minor, { exponent: currencyExponent(currency) ?? 2 });

/** The merchant's batch and its cards with their codes; undefined when it is not theirs (or does not exist). */
export async function batchDetail(db: Db, merchantId: string, batchId: string): Promise<{ batch: Batch; cards: IssuedCard[] } | undefined> {
  const batch = BATCH_ID.test(batchId) ? await getBatch(db, merchantId, batchId) : undefined;
  if (!batch) return undefined;
  return { batch, cards: await batchCards(db, batch.id) };
}

export type BuyBatchField = "quantity" | "value" | "currency";
export type BuyBatchOutcome = { ok: true; batch: Batch } | { ok: false; code: string; error: string; field?: BuyBatchField };

/** A form's quantity: a whole number as text becomes that number; anything else goes on as it is, to be refused. */
function quantityOf(raw: unknown): unknown {
  const text = typeof raw === "string" ? raw.trim() : raw;
  return typeof text === "string" && /^\d{1,7}$/.test(text) ? Number(text) : text;
}

/** What the buyer reads for each refusal of a batch, beside the field it is about. */
function refusalMessage(err: DomainError, fields: { currency: unknown }): string {
  switch (err.code) {
    case "invalid_quantity":
      return `Enter a whole number of cards from 1 to ${BATCH_MAX_QUANTITY.toLocaleString("en-US")}.`;
    case "invalid_value": {
      // The domain says which: not an amount ("a positive amount of …"), or outside 1 to 1,000 USD a card.
      const said = err.message.replace(/^value: /, "").replace(/^a positive/, "Enter a positive");
      return said.charAt(0).toUpperCase() + said.slice(1);
    }
    case "invalid_currency":
      return typeof fields.currency === "string" && /^[A-Za-z]{3}$/.test(fields.currency.trim())
        ? `${fields.currency.trim().toUpperCase()} cannot be issued now: there is no current exchange rate for it. Try USD.`
        : "Enter a three-letter ISO 4217 currency code, such as USD or EUR.";
    case "balance_too_low": {
      const { required, available } = err.details as { required?: number; available?: number };
      return required !== undefined && available !== undefined
        ? `Your balance is too low: this batch costs ${centsToDecimal(BigInt(required))} USD and the balance is ${centsToDecimal(BigInt(available))} USD. Top it up or buy fewer cards.`
        : "Your balance is too low for this batch. Top it up or buy fewer cards.";
    }
    default:
      return err.message;
  }
}

const FIELD_OF: Record<string, BuyBatchField | undefined> = { invalid_quantity: "quantity", invalid_value: "value", invalid_currency: "currency" };

/**
 * Buys a batch from the dashboard's form (text fields): its price taken from the balance (createBatch), then its cards
 * issued at once, as the API does. A refusal comes back with its message and the field it is about; a batch whose
 * issuing failed answers `processing` and the upkeep finishes it.
 */
export async function buyBatch(
  db: Db,
  merchantId: string,
  fields: Record<string, unknown>,
  fx: FxSource,
  /** Runs in the transaction that takes the price (the form's request key stores its answer there). */
  inTransaction?: (tx: Db, batch: Batch) => Promise<void>,
): Promise<BuyBatchOutcome> {
  const req = {
    quantity: quantityOf(fields.quantity),
    value: typeof fields.value === "string" ? fields.value.trim() : fields.value,
    currency: fields.currency,
  };
  let batch: Batch;
  try {
    batch = await createBatch(db, merchantId, req, fx, inTransaction);
  } catch (err) {
    if (err instanceof DomainError && (err.code in FIELD_OF || err.code === "balance_too_low")) {
      return { ok: false, code: err.code, error: refusalMessage(err, { currency: fields.currency }), field: FIELD_OF[err.code] };
    }
    throw err;
  }
  return { ok: true, batch: (await issueBatch(db, batch.id)) ?? (await getBatch(db, merchantId, batch.id)) ?? batch };
}

/** The codes file's columns, in order. */
export const BATCH_CSV_COLUMNS = ["id", "code", "currency", "value", "balance"] as const;

/**
 * Cards as CSV (RFC 4180: CRLF line ends, quotes where a cell needs them; a cell a spreadsheet would run as a formula
 * gets a leading apostrophe, as in the orders export).
 */
export function batchCsv(cards: Pick<IssuedCard, "id" | "code" | "currency" | "value" | "balance">[]): string {
  const rows = cards.map((c) => [c.id, c.code, c.currency, batchValue(c.value, c.currency), batchValue(c.balance, c.currency)].map(defuseFormula));
  return stringify([[...BATCH_CSV_COLUMNS], ...rows], { record_delimiter: "windows" });
}

/** The codes file of a batch: undefined when the batch is not the merchant's (or does not exist). */
export async function batchCodesCsv(db: Db, merchantId: string, batchId: string): Promise<string | undefined> {
  const detail = await batchDetail(db, merchantId, batchId);
  return detail && batchCsv(detail.cards);
}
