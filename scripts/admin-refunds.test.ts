import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDataDir, withTestCatalog } from "@/test/db";
import { createDemoProvider } from "@/lib/fulfilment/providers/demo";
import { partlyFailedInvoice, TEST_PAYER, TEST_PAYMENT } from "@/test/fulfilment";
import { runAdminHere } from "./testing-here";

let dir: string;
let invoiceId: string;

// In this process (runAdminHere): the database is closed between the commands, as between two processes.
const admin = (args: string[]) => runAdminHere(args, dir);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-admin-refunds-"));
  // A paid invoice whose 10 USDC order failed, in the embedded database the command opens.
  const database = await openTestDataDir(dir, "server", withTestCatalog);
  try {
    invoiceId = await partlyFailedInvoice(database.db, TEST_PAYER, createDemoProvider("admin refunds test key"));
  } finally {
    await database.close();
  }
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("npm run admin -- refunds", () => {
  it("lists the refund due, records one paid by hand, then lists none", async () => {
    const listed = await admin(["refunds", "list"]);
    expect(listed.code).toBe(0);
    const [header, row] = listed.out.split("\n").map((l) => l.split(/\s{2,}/));
    expect(header).toEqual(["invoice", "network", "to", "orders", "usdc", "since", "last error"]);
    expect(row!.slice(0, 5)).toEqual([invoiceId, TEST_PAYMENT.network, TEST_PAYMENT.payer, "1", "10.000000"]);
    expect(JSON.parse((await admin(["refunds", "list", "--json"])).out)).toMatchObject([
      { invoiceId, network: TEST_PAYMENT.network, paymentPayer: TEST_PAYMENT.payer, orders: 1, amountUsdc: "10000000" },
    ]);

    expect(await admin(["refunds", "mark-paid", invoiceId, "--tx", "0x1234"])).toMatchObject({
      code: 1,
      out: expect.stringContaining("is not an EVM transaction hash"),
    });
    const tx = `0x${"d5".repeat(32)}`;
    expect(await admin(["refunds", "mark-paid", invoiceId, "--tx", tx])).toMatchObject({
      code: 0,
      out: expect.stringContaining(`Marked 1 order(s) of ${invoiceId} refunded by ${tx}.`),
    });
    expect(await admin(["refunds", "list"])).toMatchObject({ code: 0, out: "No refund is due.\n" });
    expect(await admin(["refunds", "mark-paid", invoiceId, "--tx", tx])).toMatchObject({ code: 1, out: expect.stringContaining("has no refund due") });
  });

  it("explains its usage", async () => {
    expect(await admin(["refunds", "mark-paid", invoiceId])).toMatchObject({ code: 2, out: expect.stringContaining("needs an INVOICE_ID and --tx") });
    expect(await admin(["refunds", "pay"])).toMatchObject({ code: 2, out: expect.stringContaining("Unknown refunds command: pay") });
    expect((await admin(["help"])).out).toContain("refunds mark-paid INVOICE_ID --tx TX");
  });
});
