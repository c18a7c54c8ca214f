import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tableFxSource } from "@/lib/catalog/fx";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, testDriver } from "@/test/db";
import { balanceOf, createMerchant } from "@/lib/merchants";
import { BATCH_CSV_COLUMNS, BATCHES_PAGE_SIZE, batchCodesCsv, batchCsv, batchDetail, batchesPage, batchListQuery, buyBatch } from "./gift-card-batches";

const fx = tableFxSource("2026-11-25", { USD: "1", EUR: "1.25", JPY: "0.0065" });

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const merchantWith = async (cents: bigint, name = "Batches") => (await createMerchant(database.db, { name, creditCents: cents })).merchant_id;

describe(`the dashboard's gift card batches on ${testDriver}`, () => {
  it("buys a batch from the form's text fields, issues it at once, and answers its codes as CSV to its merchant only", async () => {
    const merchant = await merchantWith(100_000n);
    const bought = await buyBatch(database.db, merchant, { quantity: " 25 ", value: "10", currency: "usd" }, fx);
    expect(bought.ok).toBe(true);
    const batch = bought.ok ? bought.batch : undefined;
    expect(batch).toMatchObject({ status: "complete", quantity: 25, issued: 25, currency: "USD", priceCents: 25_000n });
    expect(await balanceOf(database.db, merchant)).toBe(75_000n);

    const csv = await batchCodesCsv(database.db, merchant, batch!.id);
    expect(csv).toBeDefined();
    expect(csv!.split("\r\n")[0]).toBe(BATCH_CSV_COLUMNS.join(","));
    expect(csv!.endsWith("\r\n")).toBe(true);
    const records = parse(csv!, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(25);
    expect(new Set(records.map((r) => r.code)).size).toBe(25);
    const { cards } = (await batchDetail(database.db, merchant, batch!.id))!;
    expect(records.map((r) => r.code)).toEqual(cards.map((c) => c.code));
    for (const r of records) expect(r).toMatchObject({ id: expect.stringMatching(/^gc_/), currency: "USD", value: "10", balance: "10" });

    // Another merchant's batch is not theirs to see; neither is an id that is not a batch's.
    const other = await merchantWith(0n, "Other");
    expect(await batchCodesCsv(database.db, other, batch!.id)).toBeUndefined();
    expect(await batchDetail(database.db, other, batch!.id)).toBeUndefined();
    expect(await batchCodesCsv(database.db, merchant, "gcb_nope")).toBeUndefined();
    expect(await batchCodesCsv(database.db, merchant, "../orders")).toBeUndefined();
  });

  it("writes each currency's own decimals", async () => {
    const merchant = await merchantWith(10_000n);
    const bought = await buyBatch(database.db, merchant, { quantity: "2", value: "1000", currency: "JPY" }, fx);
    expect(bought.ok).toBe(true);
    const records = parse((await batchCodesCsv(database.db, merchant, bought.ok ? bought.batch.id : ""))!, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => [r.currency, r.value, r.balance])).toEqual([
      ["JPY", "1000", "1000"],
      ["JPY", "1000", "1000"],
    ]);
  });

  it("escapes cells as the orders export does: quotes where needed, formulas defused", () => {
    const csv = batchCsv([
      { id: "gc_1", code: '=HYPERLINK("http://evil")', currency: "USD", value: 1000n, balance: 0n },
      { id: "gc_2", code: "A,B\nC", currency: "USD", value: 1n, balance: 1n },
      { id: "+gc_3", code: "@SUM(1)", currency: "-USD", value: 5n, balance: 5n },
    ]);
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("id,code,currency,value,balance");
    expect(lines[1]).toBe(`gc_1,"'=HYPERLINK(""http://evil"")",USD,10,0`);
    expect(parse(csv, { columns: true })).toEqual([
      { id: "gc_1", code: `'=HYPERLINK("http://evil")`, currency: "USD", value: "10", balance: "0" },
      { id: "gc_2", code: "A,B\nC", currency: "USD", value: "0.01", balance: "0.01" },
      { id: "'+gc_3", code: "'@SUM(1)", currency: "'-USD", value: "0.05", balance: "0.05" },
    ]);
  });

  it("refuses by field, charging nothing: quantity, value, currency, and a balance too low", async () => {
    const merchant = await merchantWith(5_000n);
    const refused = async (fields: Record<string, unknown>) => {
      const outcome = await buyBatch(database.db, merchant, fields, fx);
      if (outcome.ok) throw new Error("bought");
      return outcome;
    };
    for (const quantity of ["1001", "0", "2.5", "", "ten", "-1"]) {
      expect(await refused({ quantity, value: "10", currency: "USD" })).toMatchObject({
        code: "invalid_quantity",
        field: "quantity",
        error: "Enter a whole number of cards from 1 to 1,000.",
      });
    }
    for (const value of ["", "abc", "1e3", "-5", "0"]) {
      expect(await refused({ quantity: "1", value, currency: "USD" })).toMatchObject({
        code: "invalid_value",
        field: "value",
        error: expect.stringMatching(/^Enter a positive amount of USD/),
      });
    }
    expect(await refused({ quantity: "1", value: "0.50", currency: "USD" })).toMatchObject({
      code: "invalid_value",
      field: "value",
      error: "Each card is worth 1.00 to 1,000.00 USD (this one 0.50 USD).",
    });
    expect(await refused({ quantity: "1", value: "10", currency: "CHF" })).toMatchObject({
      code: "invalid_currency",
      field: "currency",
      error: "CHF cannot be issued now: there is no current exchange rate for it. Try USD.",
    });
    expect(await refused({ quantity: "1", value: "10", currency: "dollars" })).toMatchObject({
      code: "invalid_currency",
      field: "currency",
      error: expect.stringContaining("ISO 4217"),
    });
    const poor = await refused({ quantity: "6", value: "10", currency: "USD" });
    expect(poor).toMatchObject({ code: "balance_too_low", error: expect.stringContaining("this batch costs 60.00 USD and the balance is 50.00 USD") });
    expect(poor.field).toBeUndefined();
    expect(await balanceOf(database.db, merchant)).toBe(5_000n);
  });

  it("lists the merchant's batches newest first, a page at a time, and ignores a cursor that is not a batch id", async () => {
    const merchant = await merchantWith(1_000_000n);
    const ids: string[] = [];
    for (let i = 0; i < BATCHES_PAGE_SIZE + 2; i++) {
      const bought = await buyBatch(database.db, merchant, { quantity: "1", value: "1", currency: "USD" }, fx);
      if (bought.ok) ids.push(bought.batch.id);
    }
    await merchantWith(0n, "Someone else");
    const first = await batchesPage(database.db, merchant, {});
    expect(first.rows.map((b) => b.id)).toEqual([...ids].reverse().slice(0, BATCHES_PAGE_SIZE));
    expect(first.older).toBe(first.rows.at(-1)!.id);
    const second = await batchesPage(database.db, merchant, { after: first.older! });
    expect(second.rows.map((b) => b.id)).toEqual(ids.slice(0, 2).reverse());
    expect(second.older).toBeNull();
    expect(batchListQuery.parse({ after: "x' OR 1=1" })).toEqual({ after: undefined });
    expect(batchListQuery.parse({ after: ["a", "b"] })).toEqual({ after: undefined });
    expect(batchListQuery.parse({ after: ids[0] })).toEqual({ after: ids[0] });
  });
});
