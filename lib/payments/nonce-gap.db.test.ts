import { x402Client } from "@x402/core/client";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { inArray } from "drizzle-orm";
import { createPublicClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { withKeyLock } from "@/lib/platform/db/key-lock";
import { settlements } from "@/lib/platform/db/schema";
import { testDriver, withTestCatalog } from "@/test/db";
import type { Devnet } from "@/lib/devnet";
import { processTestDevnet } from "@/test/devnet";
import { settlementEffects } from "@/lib/checkout/settlement-effects";
import { createInvoice, createInvoiceBody, getInvoice, invoiceClaim } from "@/lib/checkout";
import type { EvmNetwork } from "@/lib/platform/networks";
import { chainControl } from "@/test/adversarial/chain-control";
import { nonceKey } from "./evm-signer";
import { exchange } from "./exchange";
import { inProcessFacilitator } from "./facilitator";
import { databaseNonceStore } from "./nonce-store";
import { paymentsWith, type Payments } from "./payments";

// A transaction of the gas wallet that the node loses (dropped from its pool, forgotten by a chain restarted from an
// older state) must not hold back the settlements sent after it: the signer notices the missing nonce within a few
// blocks and fills it. Payments go through the exchange with the official x402 client signing, on the devnet's anvil
// mining a block a second, with the production receipt timeout and replacement delay.

let database: Database;
let devnet: Devnet;
processTestDevnet("nonce-gap", (ctx) => ({ database, devnet } = ctx), withTestCatalog);

const FUNDS = 50_000_000n;
const network = () => devnet.networks.find((n): n is EvmNetwork => n.kind === "evm")!;
const gasWallet = () => devnet.keys.evmFacilitator.address;

/** The shop's payments on the first EVM network, settled by a facilitator of their own (as a server starting up). */
async function shopPayments(): Promise<Payments> {
  const n = network();
  const sync = { lock: <T>(key: string, work: () => Promise<T>) => withKeyLock(database, key, work), nonces: databaseNonceStore(async () => database.db) };
  const facilitator = inProcessFacilitator([n], { evm: [devnet.keys.evmFacilitator], solana: devnet.keys.solanaFacilitator }, sync);
  return paymentsWith({ networks: [n], facilitator, devnet: true, inProcess: true });
}

/** A $10 invoice and a funded buyer's payment of it, signed; `pay` offers it through `p` as the invoice route does. */
async function signedPayment(p: Payments) {
  const n = network();
  const items = createInvoiceBody.parse({ items: [{ product_id: "test-gift-card-code", package_value: "10" }] }).items;
  const created = await createInvoice({ items, payer: { chainId: "eip155:1", address: privateKeyToAccount(generatePrivateKey()).address } }, database.db);
  const inv = (await getInvoice(database.db, created.id))!;
  const buyer = privateKeyToAccount(generatePrivateKey());
  await devnet.mint(n.network, buyer.address, FUNDS);
  const client = new x402Client().register(n.network, new ExactEvmScheme(buyer)).setSpendControls({ allowedAssets: true, maxAmountPerPayment: false });
  const [requirement] = await p.requirements(inv.priceUsdc);
  const header = encodePaymentSignatureHeader(
    await client.createPaymentPayload({ x402Version: 2, resource: { url: "http://127.0.0.1/x402/invoice/pay" }, accepts: [requirement!] }),
  );
  const payload = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  const pay = () =>
    exchange({
      db: database.db,
      payments: p,
      payload,
      requirement: requirement!,
      purpose: "invoice",
      reference: inv.id,
      claim: invoiceClaim(inv.id),
      effects: settlementEffects,
    });
  return { inv, buyer, pay };
}

const charged = async (payment: Awaited<ReturnType<typeof signedPayment>>) => FUNDS - (await devnet.balance(network().network, payment.buyer.address));

/** Waits until `ready` says yes, asking every 50 ms for at most 10 s. */
async function until(ready: () => Promise<boolean>, what: string) {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) if (await ready()) return;
  throw new Error(`Timed out waiting until ${what}`);
}

describe(`a settlement behind a nonce the node lost, on ${testDriver}`, () => {
  it("sends the dropped transaction again as it was signed, within a few blocks, and the ones queued behind it land too", async () => {
    const chain = chainControl(network().rpcUrl);
    const p = await shopPayments();
    const queued = await Promise.all(Array.from({ length: 4 }, () => signedPayment(p)));
    try {
      // Blocks wait while the four settlements reach the node's pool; then it loses the first of them.
      await chain.pauseMining();
      const paying = queued.map((q) => q.pay());
      await until(async () => (await chain.pooled(gasWallet())).length === 4, "the four transactions are in the pool");
      const [first] = await chain.pooled(gasWallet());
      await chain.dropTransaction(first!.hash);
      expect((await chain.pooled(gasWallet())).map((tx) => tx.hash)).not.toContain(first!.hash);

      await chain.resumeMining(1);
      const resumed = Date.now();
      const results = await Promise.all(paying);
      expect(results.map((r) => r.kind)).toEqual(["settled", "settled", "settled", "settled"]);
      // Filled within a few blocks: long before the signer would send a stuck transaction again at a higher fee (12 s).
      expect(Date.now() - resumed).toBeLessThan(8_000);
      // The lost transaction was sent again unchanged: its settlement records the hash it waited for.
      const rows = await database.db
        .select()
        .from(settlements)
        .where(
          inArray(
            settlements.reference,
            queued.map((q) => q.inv.id),
          ),
        );
      expect(rows.map((r) => r.status)).toEqual(["settled", "settled", "settled", "settled"]);
      expect(rows.map((r) => r.transaction)).toContain(first!.hash);
      for (const q of queued) expect(await charged(q)).toBe(q.inv.priceUsdc);
    } finally {
      await chain.resumeMining(1);
    }
  }, 60_000);

  it("fills the nonces a chain restarted from an older state forgot, so that the next payment lands", async () => {
    const n = network();
    const chain = chainControl(n.rpcUrl);
    const rpc = createPublicClient({ transport: http(n.rpcUrl) });
    const p = await shopPayments();
    const [before, next] = await Promise.all([Promise.all([signedPayment(p), signedPayment(p)]), signedPayment(p)]);
    const count = (blockTag: "latest" | "pending") => rpc.getTransactionCount({ address: gasWallet(), blockTag });

    // Two payments settle; then the chain goes back to a state from before them (the shop's records do not).
    const snapshot = await chain.snapshot();
    const forgotten = await count("latest");
    expect((await Promise.all(before.map((b) => b.pay()))).map((r) => r.kind)).toEqual(["settled", "settled"]);
    expect(await count("latest")).toBe(forgotten + 2);
    await chain.revert(snapshot);
    expect(await count("pending")).toBe(forgotten);
    const revertedTo = await rpc.getBlockNumber({ cacheTime: 0 });
    const recorded = await databaseNonceStore(async () => database.db).get(nonceKey(n.network, gasWallet()));
    // The shop's next nonce, recorded a moment ago, is past the chain's count: the next send takes it.
    expect(recorded!.next).toBe(forgotten + 2);
    expect(Date.now() - recorded!.updatedAt.getTime()).toBeLessThan(10_000);

    const started = Date.now();
    const result = await next.pay();
    expect(result.kind).toBe("settled");
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(await charged(next)).toBe(next.inv.priceUsdc);
    // The two forgotten nonces hold empty transfers of the gas wallet to itself, the payment the next one; nothing
    // waits behind a gap.
    const sent: { nonce: number; to: string | null; input: string }[] = [];
    for (let b = revertedTo + 1n, head = await rpc.getBlockNumber({ cacheTime: 0 }); b <= head; b++) {
      const block = await rpc.getBlock({ blockNumber: b, includeTransactions: true });
      for (const tx of block.transactions) if (tx.from.toLowerCase() === gasWallet().toLowerCase()) sent.push(tx);
    }
    expect(sent.map((tx) => [tx.nonce, tx.to?.toLowerCase(), tx.input])).toEqual([
      [forgotten, gasWallet().toLowerCase(), "0x"],
      [forgotten + 1, gasWallet().toLowerCase(), "0x"],
      [forgotten + 2, n.usdc.address.toLowerCase(), expect.stringMatching(/^0x[0-9a-f]{8}/)],
    ]);
    expect(await count("pending")).toBe(forgotten + 3);
    expect(await count("latest")).toBe(forgotten + 3);
  }, 60_000);
});
