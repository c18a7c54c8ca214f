import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createRoute } from "@/app/api/v2/invoices/route";
import { openDatabase, type Database } from "@/lib/platform/db/client";
import { createDatabase } from "@/lib/platform/db/create-database";
import { invoices, ledgerEntries, orders } from "@/lib/platform/db/schema";
import { testDriver, useAsProcessDatabase, withTestCatalog } from "@/test/db";
import { startWorker, type Worker } from "@/lib/fulfilment";
import { balanceOf, createMerchant } from "@/lib/merchants";
import { outagePage } from "@/lib/platform/http/outage-page";
import { freePort } from "@/scripts/shop-server";
import { bearerAuth, callRoute } from "@/test/merchant-api";

const SCRIPT = "scripts/postgres-test-server.sh";
// A server of its own, stopped and started under load: the PostgreSQL run's (CI runs it as root with Debian's
// postgresql), not the server the other files share.
const canRun = testDriver === "postgres" && fs.existsSync("/usr/lib/postgresql") && process.getuid?.() === 0;

let dir = "";
let database: Database | undefined;
let restore: (() => void) | undefined;
let worker: Worker | undefined;

beforeAll(async () => {
  if (!canRun) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-outage-pg-"));
  const server = execFileSync(SCRIPT, ["start", String(await freePort()), dir], { encoding: "utf8" }).trim();
  database = await openDatabase({ driver: "postgres", url: await createDatabase(server, "storefront_outage") }, withTestCatalog);
  restore = useAsProcessDatabase(database);
});

afterAll(async () => {
  await worker?.stop();
  restore?.();
  // The server first, whatever else fails to end: no test leaves one running.
  if (dir) execFileSync(SCRIPT, ["stop", dir]);
  await database?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Skipped outside the PostgreSQL run as root with Debian's postgresql (canRun above): .ci/run is such a run.
describe.skipIf(!canRun)("merchant purchases while PostgreSQL restarts", () => {
  it("answers 503 with Retry-After while it is down (pages too), never 500; every auto_pay invoice is paid and every balance exact", async () => {
    const db = database!.db;
    // The fulfilment loop runs through the outage, as a server's does.
    let loopErrors = 0;
    worker = startWorker(async () => db, { intervalMs: 200, onError: () => loopErrors++ });
    // One buyer per merchant (the API's limit is per account), each a request at a time.
    const credit = 100_000n;
    const merchants = await Promise.all([...Array(8).keys()].map((i) => createMerchant(db, { name: `Outage ${i}`, creditCents: credit })));
    const body = { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true };
    const statuses = new Map<number, number>();
    const withoutRetryAfter: number[] = [];
    let running = true;
    let attempt = 0;
    const buyer = async (token: string) => {
      while (running) {
        // Half with an Idempotency-Key, half without: both kinds commit whole or not at all.
        const key: Record<string, string> = attempt++ % 2 === 0 ? { "Idempotency-Key": `outage-${attempt}` } : {};
        const res = await callRoute(createRoute, "/api/v2/invoices", { headers: { ...bearerAuth(token), ...key }, body });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 503 && res.headers.get("retry-after") === null) withoutRetryAfter.push(res.status);
        await sleep(250);
      }
    };
    const buyers = merchants.map((m) => buyer(m.api_token));
    await sleep(1_000);
    // Down for 4 s (sessions cut by the fast stop, then connections refused), then up again; the pages meanwhile.
    const down = promisify(execFile)(SCRIPT, ["stop-for", dir, "4"]);
    await sleep(2_500);
    const pageWhileDown = outagePage("GET", "/products/test-gift-card-code");
    await down;
    const upAt = statuses.get(200) ?? 0;
    await sleep(2_000);
    running = false;
    await Promise.all(buyers);

    expect(statuses.get(500)).toBeUndefined();
    expect([...statuses.keys()].sort()).toEqual([200, 503]);
    expect(withoutRetryAfter).toEqual([]);
    // The shop served again once the database was back, without a restart of its own.
    expect(statuses.get(200)!).toBeGreaterThan(upAt);
    expect([pageWhileDown?.status, pageWhileDown?.headers.get("retry-after")]).toEqual([503, "5"]);
    expect(outagePage("GET", "/products/test-gift-card-code")).toBeUndefined();

    const ids = merchants.map((m) => m.merchant_id);
    const made = await db.select().from(invoices).where(inArray(invoices.merchantId, ids));
    expect(made.length).toBeGreaterThanOrEqual(statuses.get(200)!);
    expect(made.filter((i) => i.status === "unpaid")).toEqual([]);
    for (const m of merchants) {
      const own = made.filter((i) => i.merchantId === m.merchant_id);
      const debits = await db.select().from(ledgerEntries).where(eq(ledgerEntries.merchantId, m.merchant_id));
      expect(debits.filter((e) => e.kind === "debit")).toHaveLength(own.length);
      expect(await balanceOf(db, m.merchant_id)).toBe(credit - own.reduce((sum, i) => sum + (i.priceCents ?? 0n), 0n));
    }

    // The fulfilment loop met the outage and went on: every paid order is delivered.
    expect(loopErrors).toBeGreaterThan(0);
    const undelivered = async () =>
      (
        await db
          .select({ status: orders.status })
          .from(orders)
          .where(
            inArray(
              orders.invoiceId,
              made.map((i) => i.id),
            ),
          )
      ).filter((o) => o.status !== "delivered");
    for (let i = 0; i < 100 && (await undelivered()).length > 0; i++) await sleep(100);
    expect(await undelivered()).toEqual([]);
  }, 60_000);
});
