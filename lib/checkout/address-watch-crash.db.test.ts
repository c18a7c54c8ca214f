import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { createPublicClient, createWalletClient, encodeFunctionData, http, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/platform/db/client";
import { ledgerEntries, paymentAddresses } from "@/lib/platform/db/schema";
import { openTestDataDir, testDriver, withTestCatalog } from "@/test/db";
import { DEVNET_EVM_CHAINS, DEVNET_USDC_ADDRESS } from "@/lib/devnet/chains";
import { mintUsdc, startEvmChain, type EvmDevChain } from "@/lib/devnet/evm";
import { evmNetwork } from "@/lib/devnet/start-devnet";
import { DEV_USDC_ABI } from "@/lib/devnet/evm/artifacts";
import type { EvmNetwork } from "@/lib/platform/networks";
import { merchantPriceCents } from "@/lib/api/merchant";
import { createMerchant } from "@/lib/merchants";
import { databaseSenderSync } from "@/lib/payments/nonce-store";
import { forwarderGasSender } from "@/lib/payments/gas-sender";
import { readClient, readHoldings } from "@/lib/payments/forwarders";
import { releaseWatchers, watchAddresses } from "@/lib/payments/address-watch";
import { chainControl } from "@/test/adversarial/chain-control";
import { createInvoice } from "./create-invoice";
import { getInvoice } from "./payment";
import { addressPaymentEffect } from "./address-payment";

/**
 * The address watcher killed with SIGKILL at its two moments of truth, on PGlite on disk and a chain mining a block a
 * second: between seeing a payment and recording it (inside the transaction that records it), and between sending
 * a flush and recording it. The next start reads the chain again: the invoice is paid once, the extra credited once,
 * and payTo receives what the address received exactly once.
 */

const base = DEVNET_EVM_CHAINS[0];
const gas = generatePrivateKey();
const payer = privateKeyToAccount(generatePrivateKey());
const payTo = privateKeyToAccount(generatePrivateKey()).address;
const EXTRA = 1_500_000n;
let dataDir = "";
let database: Database | undefined;
let chain: EvmDevChain;
let network: EvmNetwork;
/** What the next start does on the embedded database (lib/server/start.ts): the killed process's claims handed back. */
const open = async () => {
  const opened = await openDatabase({ driver: "pglite", dataDir, role: "address-watch-crash-test" });
  await releaseWatchers(opened.db, "all");
  return opened;
};

beforeAll(async () => {
  if (testDriver === "postgres") return;
  chain = await startEvmChain({
    chainId: base.chainId,
    name: base.name,
    usdcAddress: DEVNET_USDC_ADDRESS,
    gasWallets: [privateKeyToAccount(gas).address, payer.address],
    blockTimeSeconds: 1,
  });
  network = evmNetwork("base", chain, payTo, 2);
  await mintUsdc(chain.rpcUrl, DEVNET_USDC_ADDRESS, payer.address, 1_000_000_000n);
}, 60_000);
afterAll(async () => {
  await database?.close();
  await chain?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs one watcher round in a process of its own until it prints `marker`, then kills it with SIGKILL; what it printed. */
async function killWatcherAt(mode: "decide" | "flush", marker: RegExp): Promise<RegExpExecArray> {
  // tsx as a loader of this very process (its CLI would run the script in a grandchild that SIGKILL would miss).
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join("test", "fixtures", "address-watch-crash.fixture.ts"), dataDir, JSON.stringify(network), gas, mode],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise((r) => child.on("exit", r));
  try {
    return await new Promise<RegExpExecArray>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const m = marker.exec(out);
        if (m) resolve(m);
        else if (out.includes("round ended")) reject(new Error(`the watcher's round ended without ${marker}: ${out}`));
      });
      child.on("exit", (code) => reject(new Error(`the watcher exited (${code}) before ${marker}`)));
      setTimeout(() => reject(new Error(`the watcher did not reach ${marker} within 60 s`)), 60_000).unref();
    });
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
}

describe.skipIf(testDriver === "postgres")("the address watcher killed (kill -9)", () => {
  it(
    "between seeing a payment and recording it, and between a flush and its record: paid once, credited once, flushed once",
    { timeout: 180_000 },
    async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "address-watch-crash-"));
      database = await openTestDataDir(dataDir, "address-watch-crash-test", withTestCatalog);
      const m = await createMerchant(database.db, { name: "Crash", creditCents: 0n });
      const inv = await createInvoice(
        {
          items: [{ product_id: "test-gift-card-code", package_value: "10" }],
          merchant: {
            merchantId: m.merchant_id,
            paymentMethod: "usdc_base",
            webhookUrl: null,
            priceCents: merchantPriceCents,
            payByAddress: { network, coin: "USDC", usdPerCoin: "1" },
          },
        },
        database.db,
      );
      const [address] = await database.db.select().from(paymentAddresses).where(eq(paymentAddresses.invoiceId, inv.id));
      const to = address!.address as Address;
      const sent = address!.amountDue + EXTRA;
      const wallet = createWalletClient({ account: payer, transport: http(chain.rpcUrl) });
      const hash = await wallet.sendTransaction({
        chain: null,
        to: DEVNET_USDC_ADDRESS,
        data: encodeFunctionData({ abi: DEV_USDC_ABI, functionName: "transfer", args: [to, sent] }),
      });
      await createPublicClient({ transport: http(chain.rpcUrl) }).waitForTransactionReceipt({ hash, pollingInterval: 100 });
      await chainControl(chain.rpcUrl).waitBlocks(2);
      await database.close();
      database = undefined;

      // 1. Killed inside the transaction that records the payment and its decision: nothing of it stays.
      await killWatcherAt("decide", /deciding\n/);
      database = await open();
      expect((await getInvoice(database.db, inv.id))!.status).toBe("unpaid");
      expect((await database.db.select().from(paymentAddresses).where(eq(paymentAddresses.invoiceId, inv.id)))[0]).toMatchObject({ received: 0n, applied: 0n });
      const credits = () =>
        database!.db
          .select()
          .from(ledgerEntries)
          .where(and(eq(ledgerEntries.merchantId, m.merchant_id), eq(ledgerEntries.kind, "credit")));
      expect(await credits()).toHaveLength(0);
      await database.close();
      database = undefined;

      // 2. The next watcher decides it (paid, the extra credited) and is killed once its flush is sent, before its record.
      const [, flush] = await killWatcherAt("flush", /flushed (0x[0-9a-f]{64})\n/);
      const receipt = await createPublicClient({ transport: http(chain.rpcUrl) }).waitForTransactionReceipt({
        hash: flush as `0x${string}`,
        pollingInterval: 100,
      });
      expect(receipt.status).toBe("success");
      database = await open();
      expect((await getInvoice(database.db, inv.id))!.status).toBe("paid");
      const [recorded] = await database.db.select().from(paymentAddresses).where(eq(paymentAddresses.invoiceId, inv.id));
      expect(recorded).toMatchObject({ received: sent, applied: address!.amountDue, credited: EXTRA, flushTx: null });
      expect(recorded!.flushSentAt).not.toBeNull();

      // 3. Rounds after the restart: nothing is decided again, nothing flushed again.
      const send = forwarderGasSender(
        network,
        [privateKeyToAccount(gas)],
        databaseSenderSync(async () => database!),
      );
      for (let i = 0; i < 4; i++) {
        await watchAddresses(database.db, network, { client: readClient(network), effect: addressPaymentEffect, send });
        await chainControl(chain.rpcUrl).waitBlocks(1);
      }
      const [after] = await database.db.select().from(paymentAddresses).where(eq(paymentAddresses.invoiceId, inv.id));
      expect(after).toMatchObject({ received: sent, applied: address!.amountDue, credited: EXTRA, held: 0n, flushTx: null });
      expect((await credits()).map((e) => e.amountCents)).toEqual([EXTRA / 10_000n]);
      const client = createPublicClient({ transport: http(chain.rpcUrl) });
      expect(await readHoldings(client, [to], DEVNET_USDC_ADDRESS, await client.getBlockNumber())).toEqual([{ held: 0n, flushed: sent }]);
    },
  );
});
