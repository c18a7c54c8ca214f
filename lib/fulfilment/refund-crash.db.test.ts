import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/platform/db/client";
import { orders } from "@/lib/platform/db/schema";
import { testDriver, openTestDataDir, withTestCatalog } from "@/test/db";
import { connectDevnet } from "@/lib/devnet/shared";
import { databaseSenderSync } from "@/lib/payments/nonce-store";
import { startDevnetProcess } from "@/scripts/devnet-process";
import { devnetPayout } from "./devnet-payout";
import { createDemoProvider } from "./providers/demo";
import { releaseClaims } from "./claim";
import { refundDue } from "./refund";
import { partlyFailedInvoice } from "@/test/fulfilment";

let dataDir = "";
let database: Database | undefined;
let devnetProcess: Awaited<ReturnType<typeof startDevnetProcess>> | undefined;
const open = () => openDatabase({ driver: "pglite", dataDir, role: "refund-crash-test" });

afterAll(async () => {
  await database?.close();
  await devnetProcess?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the refund worker until its transfer is sent, then kills it with SIGKILL; returns the transfer. */
async function killWorkerAfterSending(invoiceId: string): Promise<string> {
  // tsx as a loader of this very process (its CLI would run the script in a grandchild that SIGKILL would miss).
  const child = spawn(process.execPath, ["--import", "tsx", path.join("test", "fixtures", "refund-crash.fixture.ts"), dataDir, devnetProcess!.url, invoiceId], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((r) => child.on("exit", r));
  try {
    return await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const m = /sent (\S+)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on("exit", (code) => reject(new Error(`the refund worker exited (${code}) before sending`)));
      setTimeout(() => reject(new Error("the refund worker did not send within 60 s")), 60_000).unref();
    });
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
}

// PGlite on disk: the killed process's stored transfer must be in the data folder the next start opens.
describe.skipIf(testDriver === "postgres")("a refund worker killed between sending and recording (kill -9)", () => {
  it("pays the refund once: the next start finds the stored transfer landed and records it", { timeout: 180_000 }, async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "refund-crash-"));
    devnetProcess = await startDevnetProcess({ blockTime: 1 });
    const devnet = await connectDevnet(devnetProcess.url);
    const base = devnet.networks.find((n) => n.kind === "evm")!;
    const wallet = { chainId: base.network, address: privateKeyToAccount(generatePrivateKey()).address };
    // The payment the invoice records is made up (no transfer): the payTo wallet gets its USDC from the faucet.
    await devnet.mint(base.network, base.payTo, 100_000_000n);

    // A copy of the run's migrated database with the catalog, in the folder a server opens.
    database = await openTestDataDir(dataDir, "refund-crash-test", withTestCatalog);
    const invoiceId = await partlyFailedInvoice(database.db, wallet, createDemoProvider("refund crash test key"));
    const shopBefore = await devnet.balance(base.network, base.payTo);
    await database.close();
    database = undefined;

    const sent = await killWorkerAfterSending(invoiceId);

    // The next start: the killed process's hold on the orders is freed at once (lib/server/hand-back.ts), not after
    // its lease.
    database = await open();
    expect(await releaseClaims(database.db)).toHaveLength(1);
    const payout = devnetPayout(
      devnet,
      databaseSenderSync(async () => database!),
    );
    const failed = async () =>
      (await database!.db.select().from(orders).where(eq(orders.invoiceId, invoiceId))).find((o) => o.productId === "test-gift-card-code-fail")!;
    expect(await failed()).toMatchObject({ status: "failed", refundTx: sent });
    for (let i = 0; i < 40 && (await failed()).status !== "refunded"; i++) {
      await refundDue(database.db, payout).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(await failed()).toMatchObject({ status: "refunded", refundTx: sent, refundUsdc: 10_000_000n });
    // One transfer on chain: the payer got the failed order's price back once, from the shop's payTo.
    expect(await devnet.balance(base.network, wallet.address)).toBe(10_000_000n);
    expect(await devnet.balance(base.network, base.payTo)).toBe(shopBefore - 10_000_000n);
  });
});
