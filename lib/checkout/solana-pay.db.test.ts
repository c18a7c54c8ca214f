/**
 * Paying a USDC invoice on Solana by a plain transfer (Solana Pay), on the devnet's real Solana chain (litesvm, a slot
 * every 400 ms, transactions confirmed once the slot clock moves on): the invoice's `payment` names the shop's wallet,
 * the amount and the invoice's own reference key; a transfer to the shop's token account that carries the reference is
 * counted once at `confirmed`, pays the invoice, and what is beyond the price is credited (a merchant) or refunded to
 * the refund address (a shopper); one the shop's own fee payer paid for (an x402 settlement) is never counted so.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import { sendSolanaPayTransfer } from "@/components/wallet/solana-pay-transfer";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET as getInvoiceRoute } from "@/app/api/v2/invoices/[id]/route";
import { POST as createRoute } from "@/app/api/v2/invoices/route";
import { X402_HANDLERS } from "@/lib/agents/x402/handlers";
import type { Devnet } from "@/lib/devnet";
import { addressRefunds, chainWatchers, ledgerEntries, paymentAddresses } from "@/lib/platform/db/schema";
import type { Database } from "@/lib/platform/db";
import type { SolanaNetwork } from "@/lib/platform/networks";
import { devnetPayout, drainDue, payAddressRefunds } from "@/lib/fulfilment";
import { issueSessionToken } from "@/lib/identity";
import { createMerchant } from "@/lib/merchants";
import { solanaReference, watchSolanaReferences } from "@/lib/payments";
import { databaseSenderSync } from "@/lib/payments/nonce-store";
import { withTestCatalog } from "@/test/db";
import { processTestDevnet } from "@/test/devnet";
import { bearerAuth, callRoute } from "@/test/merchant-api";
import { addressPaymentEffect } from "./address-payment";
import { getInvoice } from "./payment";

let database: Database;
let devnet: Devnet;
processTestDevnet("solana-pay", (ctx) => ({ database, devnet } = ctx), withTestCatalog);

const solana = () => devnet.networks.find((n): n is SolanaNetwork => n.kind === "solana")!;

type Payment = {
  method: string;
  address: string;
  reference: string;
  amount: string;
  amount_atomic: string;
  payment_uri: string;
  confirmations_required: number;
  received: string;
  missing: string;
  credited: string;
  refund_address?: string | null;
};

/** One watcher round of the Solana network, as the server's loop runs it (the shop's fee payer's transactions are x402's). */
const round = () => watchSolanaReferences(database.db, solana(), { effect: addressPaymentEffect, feePayers: new Set([devnet.keys.solanaFacilitator.address]) });

/** Rounds (a slot apart) until `done` holds. */
async function roundsUntil(done: () => Promise<boolean>, what: string, max = 30) {
  for (let i = 0; i < max; i++) {
    await round();
    if (await done()) return;
    await new Promise((r) => setTimeout(r, 400));
  }
  throw new Error(`not within ${max} rounds: ${what}`);
}

/** A payer with USDC (and SOL for its fees) on the devnet's Solana chain. */
async function payer(usdc = 100_000_000n): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  await devnet.mint(solana().network, signer.address, usdc);
  return signer;
}

/**
 * A Solana Pay transfer as a wallet makes it from the payment URI (the shop's page sends it the same way): USDC from
 * the payer's token account to the shop's, with the reference as a read-only account of the transfer; paid for by
 * `feePayer` (the payer by default).
 */
function transfer(from: KeyPairSigner, reference: string, amount: bigint, feePayer: KeyPairSigner = from): Promise<string> {
  const n = solana();
  return sendSolanaPayTransfer(from, n.rpcUrl, { recipient: n.payTo, mint: n.usdc.mint, decimals: 6, amount, reference }, feePayer);
}

const row = async (invoiceId: string) => (await database.db.select().from(paymentAddresses).where(eq(paymentAddresses.invoiceId, invoiceId)))[0]!;
const status = async (id: string) => (await getInvoice(database.db, id))!.status;

async function merchant(name: string) {
  const m = await createMerchant(database.db, { name, creditCents: 0n });
  const headers = bearerAuth(m.api_token);
  return {
    id: m.merchant_id,
    create: async () => {
      const res = await callRoute(createRoute, "/api/v2/invoices", {
        headers,
        body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_solana" },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as { id: string; payment: Payment };
    },
    get: async (id: string) =>
      (await callRoute(getInvoiceRoute, `/api/v2/invoices/${id}`, { headers, params: { id } })).body.data as { status: string; payment: Payment },
  };
}

describe("an invoice paid by a Solana Pay transfer", () => {
  it(
    "names the shop's wallet, the amount and its own reference; counts the transfer once, pays the invoice, credits the extra once",
    { timeout: 90_000 },
    async () => {
      const m = await merchant("Solana Pay");
      const inv = await m.create();
      const p = inv.payment;
      const n = solana();
      expect(p).toMatchObject({ method: "usdc_solana", address: n.payTo, reference: solanaReference(inv.id), confirmations_required: 1, received: "0" });
      expect(p.payment_uri).toBe(
        `solana:${n.payTo}?amount=${p.amount}&spl-token=${n.usdc.mint}&reference=${p.reference}&label=x402%20Storefront&message=Invoice%20${inv.id}`,
      );

      const from = await payer();
      const extra = 1_500_000n;
      await transfer(from, p.reference, BigInt(p.amount_atomic) + extra);
      await roundsUntil(async () => (await status(inv.id)) === "paid", "paid");
      // Two servers' rounds at once: nothing more.
      await Promise.all([round(), round()]);
      await drainDue(database.db);
      expect(await m.get(inv.id)).toMatchObject({ status: "complete", payment: { missing: "0", credited: "1.5" } });
      const credits = await database.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.merchantId, m.id), eq(ledgerEntries.kind, "credit")));
      expect(credits.map((e) => e.amountCents)).toEqual([150n]);

      // Read again from the start (a lost cursor, a crash before it was stored): the same transfer counts once.
      await database.db.update(chainWatchers).set({ cursor: null }).where(eq(chainWatchers.network, n.network));
      await round();
      expect((await row(inv.id)).received).toBe(BigInt(p.amount_atomic) + extra);
    },
  );

  it(
    "never counts a transaction that the shop's own fee payer paid for (an x402 settlement's), nor one without the reference",
    { timeout: 60_000 },
    async () => {
      const m = await merchant("Not by reference");
      const inv = await m.create();
      const from = await payer();
      await transfer(from, inv.payment.reference, BigInt(inv.payment.amount_atomic), devnet.keys.solanaFacilitator);
      await transfer(from, solanaReference("inv_not_an_invoice"), BigInt(inv.payment.amount_atomic));
      // Both confirmed and read.
      await new Promise((r) => setTimeout(r, 1_500));
      for (let i = 0; i < 3; i++) await round();
      expect(await row(inv.id)).toMatchObject({ received: 0n });
      expect(await status(inv.id)).toBe("unpaid");
    },
  );

  it("through a node that answers 429 and serves a transaction late, the transfer is counted once it is served, and once", { timeout: 90_000 }, async () => {
    const node = await misbehavingNode(solana().rpcUrl);
    try {
      const behind = { ...solana(), rpcUrl: node.url };
      const m = await merchant("Behind a bad node");
      const inv = await m.create();
      const from = await payer();
      const signature = await transfer(from, inv.payment.reference, BigInt(inv.payment.amount_atomic));
      // Rounds through the node: some refused whole (429), and the transaction not served for its first looks; a
      // transaction not served yet holds the cursor before it, so nothing is skipped meanwhile.
      for (let i = 0; i < 40 && (await status(inv.id)) !== "paid"; i++) {
        await watchSolanaReferences(database.db, behind, { effect: addressPaymentEffect, feePayers: new Set([devnet.keys.solanaFacilitator.address]) }).catch(
          () => undefined,
        );
        await new Promise((r) => setTimeout(r, 300));
      }
      expect(await status(inv.id)).toBe("paid");
      expect(node.unserved.get(signature)).toBe(NOT_SERVED_LOOKS);
      expect(node.refused).toBeGreaterThan(0);
      // Read again from the start through the real node: still counted once.
      await database.db.update(chainWatchers).set({ cursor: null }).where(eq(chainWatchers.network, solana().network));
      await round();
      expect((await row(inv.id)).received).toBe(BigInt(inv.payment.amount_atomic));
    } finally {
      await node.close();
    }
  });

  it("a shopper's over-payment is refunded in USDC on Solana to the refund address", { timeout: 90_000 }, async () => {
    const from = await payer();
    const token = (await issueSessionToken({ chainId: solana().network, address: from.address })).token;
    const res = await X402_HANDLERS.invoiceCreate(
      new Request("http://127.0.0.1/x402/invoice/create", {
        method: "POST",
        headers: { "X-Access-Token": token, "Content-Type": "application/json" },
        body: JSON.stringify({ items: [{ product_id: "test-gift-card-code", package_value: "10" }], payment_method: "usdc_solana" }),
      }),
    );
    const created = (await res.json()) as { invoice_id: string; payment: Payment };
    expect(res.status, JSON.stringify(created)).toBe(200);
    // By default, the paying Solana wallet.
    expect(created.payment.refund_address).toBe(from.address);
    const before = await devnet.balance(solana().network, from.address);
    const extra = 2_000_000n;
    await transfer(from, created.payment.reference, BigInt(created.payment.amount_atomic) + extra);
    await roundsUntil(
      async () => (await database.db.select().from(addressRefunds).where(eq(addressRefunds.invoiceId, created.invoice_id))).length === 1,
      "owed back",
    );
    const payout = devnetPayout(
      devnet,
      databaseSenderSync(async () => database),
    );
    expect(await payAddressRefunds(database.db, payout)).toHaveLength(1);
    expect(await devnet.balance(solana().network, from.address)).toBe(before - BigInt(created.payment.amount_atomic));
  });
});

/** How many times the misbehaving node answers "not found" for a transaction before it serves it. */
const NOT_SERVED_LOOKS = 3;

/**
 * A Solana JSON-RPC endpoint in front of the devnet's that misbehaves as real ones do: every fourth request refused
 * with 429, and `getTransaction` answering null ("not found") for a transaction's first NOT_SERVED_LOOKS looks, as a
 * node behind the one that listed it does.
 */
async function misbehavingNode(upstream: string) {
  const unserved = new Map<string, number>();
  let requests = 0;
  const state = { refused: 0 };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      void (async () => {
        const call = JSON.parse(body) as { id: unknown; method: string; params?: unknown[] };
        if (++requests % 4 === 0) {
          state.refused++;
          res
            .writeHead(429, { "Content-Type": "application/json" })
            .end(JSON.stringify({ jsonrpc: "2.0", id: call.id, error: { code: 429, message: "Too many requests" } }));
          return;
        }
        if (call.method === "getTransaction") {
          const signature = String(call.params?.[0]);
          const looks = unserved.get(signature) ?? 0;
          if (looks < NOT_SERVED_LOOKS) {
            unserved.set(signature, looks + 1);
            res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result: null }));
            return;
          }
        }
        const answer = await fetch(upstream, { method: "POST", headers: { "Content-Type": "application/json" }, body });
        res.writeHead(answer.status, { "Content-Type": "application/json" }).end(await answer.text());
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    unserved,
    get refused() {
      return state.refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
