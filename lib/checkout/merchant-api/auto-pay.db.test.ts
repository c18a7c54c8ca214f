import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as createRoute } from "@/app/api/v2/invoices/route";
import type { Database } from "@/lib/platform/db";
import { idempotencyKeys, invoices } from "@/lib/platform/db/schema";
import { processTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { balanceOf, createMerchant } from "@/lib/merchants";
import { bearerAuth, callRoute } from "@/test/merchant-api";

let database: Database;
processTestDatabase((d) => (database = d), withTestCatalog);

const body = { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true };

/** Makes the database refuse `what` on `table` for one merchant (a trigger raising, as a failing disk or a lost connection would). */
async function refuse(table: "ledger_entries" | "idempotency_keys", when: string, merchantId: string, what: "INSERT" | "UPDATE") {
  const name = `refuse_${table}_${merchantId.replace(/\W/g, "_")}`;
  await database.db.execute(
    sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.merchant_id = '${merchantId}' AND ${when} THEN RAISE EXCEPTION 'the write failed'; END IF;
        RETURN NEW;
      END $$`),
  );
  await database.db.execute(sql.raw(`CREATE TRIGGER ${name} BEFORE ${what} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`));
}

describe(`auto_pay invoice creation on ${testDriver}`, () => {
  it("leaves no unpaid invoice behind when its payment fails: the invoice and its debit commit together or not at all", async () => {
    const m = await createMerchant(database.db, { name: "Debit fails", creditCents: 10_000n });
    await refuse("ledger_entries", "true", m.merchant_id, "INSERT");
    const res = await callRoute(createRoute, "/api/v2/invoices", { headers: bearerAuth(m.api_token), body });
    expect([res.status, res.body.error_code]).toEqual([500, "create_invoice_failed"]);
    // Nothing was made, so nothing waits unpaid for its expiry; nothing was charged, as the answer says.
    expect(await database.db.select().from(invoices).where(eq(invoices.merchantId, m.merchant_id))).toEqual([]);
    expect(await balanceOf(database.db, m.merchant_id)).toBe(10_000n);
  });

  it("stores an Idempotency-Key's answer in the debit's transaction: nothing written after the debit can fail it", async () => {
    const m = await createMerchant(database.db, { name: "Answer written once", creditCents: 10_000n });
    // The stored answer may be written once: a second write, after the debit committed, fails.
    await refuse("idempotency_keys", "OLD.response_status IS NOT NULL", m.merchant_id, "UPDATE");
    const headers = { ...bearerAuth(m.api_token), "Idempotency-Key": "once-1" };
    const res = await callRoute(createRoute, "/api/v2/invoices", { headers, body });
    expect(res.status).toBe(200);
    const id = res.body.meta?.id as string;
    expect((res.body.data as { status: string }).status).not.toBe("unpaid");
    expect(await balanceOf(database.db, m.merchant_id)).toBe(9_000n);
    const [key] = await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.merchantId, m.merchant_id));
    expect([key?.invoiceId, key?.responseStatus]).toEqual([id, 200]);
    const again = await callRoute(createRoute, "/api/v2/invoices", { headers, body });
    expect([again.status, again.body.meta?.id, again.headers.get("idempotent-replayed")]).toEqual([200, id, "true"]);
    expect(await balanceOf(database.db, m.merchant_id)).toBe(9_000n);
  });
});
