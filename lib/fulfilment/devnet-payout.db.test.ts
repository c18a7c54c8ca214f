import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateKeyPairSigner } from "@solana/kit";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { orders } from "@/lib/platform/db/schema";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { startDevnet, type Devnet } from "@/lib/devnet/start-devnet";
import type { Wallet } from "@/lib/identity";
import { databaseSenderSync } from "@/lib/payments/nonce-store";
import { devnetPayout } from "./devnet-payout";
import { createDemoProvider } from "./providers/demo";
import { refundFailedOrders } from "./refund";
import { partlyFailedInvoice as partlyFailed } from "@/test/fulfilment";

let database: Database;
let devnet: Devnet;
let dataDir: string;
const demo = createDemoProvider("devnet refund test key");

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fulfilment-devnet-"));
  [database, devnet] = await Promise.all([openTestDatabase(withTestCatalog), startDevnet(dataDir)]);
  // The shop's takings, as if earlier payments had arrived.
  for (const n of devnet.networks) await devnet.mint(n.network, n.payTo, 1_000_000_000n);
}, 120_000);
afterAll(async () => {
  await Promise.all([database?.close(), devnet?.stop()]);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const partlyFailedInvoice = (wallet: Wallet) => partlyFailed(database.db, wallet, demo);

describe(`devnet refunds on ${testDriver}`, () => {
  it("pays a failed order back in USDC on the EVM chain the invoice was paid on", async () => {
    const base = devnet.networks.find((n) => n.key === "base")!;
    const wallet = { chainId: base.network, address: privateKeyToAccount(generatePrivateKey()).address };
    const id = await partlyFailedInvoice(wallet);
    const shopBefore = await devnet.balance(base.network, base.payTo);

    const refund = await refundFailedOrders(
      database.db,
      id,
      devnetPayout(
        devnet,
        databaseSenderSync(async () => database),
      ),
    );
    expect(refund).toMatchObject({ orders: 1, amountUsdc: 10_000_000n, tx: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect(await devnet.balance(base.network, wallet.address)).toBe(10_000_000n);
    expect(await devnet.balance(base.network, base.payTo)).toBe(shopBefore - 10_000_000n);
    const [failed] = await database.db.select().from(orders).where(eq(orders.productId, "test-gift-card-code-fail"));
    expect(failed).toMatchObject({ status: "refunded", refundUsdc: 10_000_000n, refundTx: refund!.tx });
  });

  it("pays back on Solana, to the token account the payer paid from", async () => {
    const solana = devnet.networks.find((n) => n.kind === "solana")!;
    const wallet = { chainId: solana.network, address: (await generateKeyPairSigner()).address };
    // The account it paid from, 1 atomic USDC left in it (refunds go to existing token accounts only).
    await devnet.mint(solana.network, wallet.address, 1n);
    const id = await partlyFailedInvoice(wallet);

    const refund = await refundFailedOrders(
      database.db,
      id,
      devnetPayout(
        devnet,
        databaseSenderSync(async () => database),
      ),
    );
    expect(refund).toMatchObject({ orders: 1, amountUsdc: 10_000_000n });
    expect(await devnet.balance(solana.network, wallet.address)).toBe(10_000_001n);
  });

  it("refuses a payout to a network the devnet does not have, leaving the refund due", async () => {
    const wallet = { chainId: "eip155:8453", address: privateKeyToAccount(generatePrivateKey()).address };
    const id = await partlyFailedInvoice(wallet);
    await expect(
      refundFailedOrders(
        database.db,
        id,
        devnetPayout(
          devnet,
          databaseSenderSync(async () => database),
        ),
      ),
    ).rejects.toThrow(/no network eip155:8453/);
    const rows = await database.db.select().from(orders).where(eq(orders.invoiceId, id));
    expect(rows.find((o) => o.status === "failed")?.lastError).toMatch(/^refund: /);
  });
});
