import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { x402Client } from "@x402/core/client";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/platform/db/client";
import { settlements } from "@/lib/platform/db/schema";
import { testDriver, openTestDataDir, withTestCatalog } from "@/test/db";
import { connectDevnet } from "@/lib/devnet/shared";
import { createInvoice, createInvoiceBody, getInvoice } from "@/lib/checkout";
import { inProcessFacilitator } from "@/lib/payments/facilitator";
import { databaseSenderSync } from "@/lib/payments/nonce-store";
import { paymentsWith } from "@/lib/payments/payments";
import { reconcileSettlements } from "@/lib/payments/settlements";
import { chainVerdict } from "@/lib/payments/verdict";
import { startDevnetProcess } from "@/scripts/devnet-process";
import { settlementEffects } from "@/lib/checkout/settlement-effects";

let dataDir = "";
let database: Database | undefined;
let devnetProcess: Awaited<ReturnType<typeof startDevnetProcess>> | undefined;
const open = () => openDatabase({ driver: "pglite", dataDir, role: "settle-crash-test" });

afterAll(async () => {
  await database?.close();
  await devnetProcess?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the settling server until its transaction is sent, then kills it with SIGKILL. */
async function killServerAfterBroadcast(invoiceId: string, payment: string): Promise<void> {
  // tsx as a loader of this very process (its CLI would run the script in a grandchild that SIGKILL would miss).
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join("test", "fixtures", "settle-crash.fixture.ts"), dataDir, devnetProcess!.url, invoiceId, payment],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = new Promise((r) => child.on("exit", r));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("sent\n")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`the server exited (${code}) before sending`)));
      setTimeout(() => reject(new Error("the server did not send within 60 s")), 60_000).unref();
    });
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
}

// PGlite on disk: what the killed server recorded must be in the data folder the next start opens.
describe.skipIf(testDriver === "postgres")("a server killed while settling a payment (kill -9)", () => {
  it("leaves the invoice held, and the next start finds the payment landed and marks it paid, once", { timeout: 180_000 }, async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "settle-crash-"));
    devnetProcess = await startDevnetProcess({ blockTime: 1 });
    const devnet = await connectDevnet(devnetProcess.url);
    const base = devnet.networks.find((n) => n.kind === "evm")!;

    // A copy of the run's migrated database with the catalog, in the folder a server opens.
    database = await openTestDataDir(dataDir, "settle-crash-test", withTestCatalog);
    const buyer = privateKeyToAccount(generatePrivateKey());
    await devnet.mint(base.network, buyer.address, 50_000_000n);
    const items = createInvoiceBody.parse({ items: [{ product_id: "test-gift-card-code", package_value: "10" }] }).items;
    const inv = await createInvoice({ items, payer: { chainId: base.network, address: buyer.address } }, database.db);
    const price = (await getInvoice(database.db, inv.id))!.priceUsdc;
    // The buyer signs for the requirement the shop offers on this network (built as any server builds it).
    const sync = databaseSenderSync(async () => database!);
    const facilitator = inProcessFacilitator(devnet.networks, { evm: [devnet.keys.evmFacilitator], solana: devnet.keys.solanaFacilitator }, sync);
    const payments = await paymentsWith({ networks: devnet.networks, facilitator, devnet: true, inProcess: true });
    const accepts = (await payments.requirements(price)).filter((r) => r.network === base.network);
    const client = new x402Client().register(base.network, new ExactEvmScheme(buyer)).setSpendControls({ allowedAssets: true, maxAmountPerPayment: false });
    const payment = encodePaymentSignatureHeader(
      await client.createPaymentPayload({ x402Version: 2, resource: { url: "http://127.0.0.1/x402/invoice/pay" }, accepts }),
    );
    await database.close();
    database = undefined;

    await killServerAfterBroadcast(inv.id, payment);

    // The next start: the settlement the dead server was holding is still open, and so is its invoice.
    database = await open();
    const [open1] = await database.db.select().from(settlements).where(eq(settlements.reference, inv.id));
    expect(open1).toMatchObject({ status: "settling", purpose: "invoice" });
    expect(await getInvoice(database.db, inv.id)).toMatchObject({ status: "unpaid", paymentClaim: open1!.id });

    // Its upkeep loop, once the dead server's hold has lapsed, asks the chain.
    for (let i = 0; i < 40 && (await getInvoice(database.db, inv.id))!.status === "unpaid"; i++) {
      await reconcileSettlements(database.db, (s) => chainVerdict(devnet.networks, s), settlementEffects, new Date(Date.now() + 61_000));
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(await getInvoice(database.db, inv.id)).toMatchObject({ status: "paid", paymentTx: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect((await database.db.select().from(settlements).where(eq(settlements.reference, inv.id)))[0]).toMatchObject({ status: "settled" });
    // One transfer: the buyer paid the price once.
    expect(await devnet.balance(base.network, buyer.address)).toBe(50_000_000n - price);
  });
});
