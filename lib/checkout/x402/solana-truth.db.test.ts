import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { FacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequired, SettleResponse } from "@x402/core/types";
import { createSolanaRpc, generateKeyPairSigner, getBase58Decoder } from "@solana/kit";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { settlements } from "@/lib/platform/db/schema";
import { testDriver, withTestCatalog } from "@/test/db";
import type { Devnet } from "@/lib/devnet";
import { localnetExactSvmClient } from "@/lib/devnet/solana/x402-client";
import { processTestDevnet } from "@/test/devnet";
import { getInvoice, invoiceClaim } from "@/lib/checkout";
import type { SolanaNetwork } from "@/lib/platform/networks";
import { exchange } from "@/lib/payments/exchange";
import { inProcessFacilitator } from "@/lib/payments/facilitator";
import { paymentsWith, senderSync } from "@/lib/payments/payments";
import { reconcileSettlements } from "@/lib/payments/settlements";
import { chainVerdict } from "@/lib/payments/verdict";
import { settlementEffects } from "@/lib/checkout/settlement-effects";
import { payInvoice } from "./pay";
import { newTestInvoice, payRequest, requiredFor as requiredForNetwork } from "@/test/x402-api";
import { withComputeBudget } from "@/test/adversarial/solana-compute";
import { SOLANA_MAX_COMPUTE_UNITS, SOLANA_MAX_PRIORITY_FEE_MICROLAMPORTS } from "@/lib/payments/facilitator";

// A Solana payment counts only when the chain shows its transaction confirmed and its token balances show the USDC
// arriving at the shop: not on a facilitator's word, nor on the bare status of a transaction it names. On the devnet's
// real Solana chain (litesvm), with the official x402 client signing.

let database: Database;
let devnet: Devnet;
processTestDevnet("solana-truth", (ctx) => ({ database, devnet } = ctx), withTestCatalog);

const solana = () => devnet.networks.find((n): n is SolanaNetwork => n.kind === "solana")!;

const newInvoice = () => newTestInvoice(database.db);
const requiredFor = (invoiceId: string) => requiredForNetwork(invoiceId, solana().network);

/** A funded Solana payer, signing with the official x402 client. */
async function payer(funds = 50_000_000n) {
  const signer = await generateKeyPairSigner();
  await devnet.mint(solana().network, signer.address, funds);
  const client = new x402Client()
    .register(solana().network, localnetExactSvmClient(signer, solana() as never))
    .setSpendControls({ allowedAssets: true, maxAmountPerPayment: false });
  return { signer, address: signer.address as string, payload: (required: PaymentRequired) => client.createPaymentPayload(required) };
}

/** Payments through a remote facilitator: the in-process one verifies, `settle` answers what the test says. */
async function remotePayments(settle: (p: PaymentPayload, inner: FacilitatorClient, network: string) => Promise<SettleResponse>) {
  const inner = inProcessFacilitator(devnet.networks, { evm: [privateKeyToAccount(generatePrivateKey())], solana: devnet.keys.solanaFacilitator }, senderSync);
  const facilitator = {
    verify: (p, r) => inner.verify(p, r),
    getSupported: () => inner.getSupported(),
    settle: (p, r) => settle(p, inner, r.network),
  } as FacilitatorClient;
  return paymentsWith({ networks: devnet.networks, facilitator, devnet: true, inProcess: false });
}

/** Pays invoice `inv` through `payments`'s exchange, as the invoice route does. */
async function payThrough(payments: Awaited<ReturnType<typeof remotePayments>>, inv: { id: string }, payload: PaymentPayload, required: PaymentRequired) {
  return exchange({
    db: database.db,
    payments,
    payload,
    requirement: required.accepts[0]!,
    purpose: "invoice",
    reference: inv.id,
    claim: invoiceClaim(inv.id),
    effects: settlementEffects,
  });
}

const settlementOf = async (invoiceId: string) => (await database.db.select().from(settlements).where(eq(settlements.reference, invoiceId)))[0];
const reconcile = () => reconcileSettlements(database.db, (s) => chainVerdict(devnet.networks, s), settlementEffects);

/** Reconciles until the invoice's settlement is decided (or `rounds` pass, half a second apart). */
async function decide(invoiceId: string, rounds = 10) {
  for (let i = 0; i < rounds; i++) {
    await reconcile();
    const row = await settlementOf(invoiceId);
    if (row && row.status !== "pending" && row.status !== "settling") return row;
    await new Promise((r) => setTimeout(r, 500));
  }
  return settlementOf(invoiceId);
}

/**
 * Decides the invoice's settlement once the chain can: a payment found nowhere waits until its blockhash has expired
 * at `finalized` (182 slots of 400 ms after the payer read it: about 73 s). The chain is asked every 2 s meanwhile, and
 * the reconciler runs when it answers (not at the settlement's next check, which backs off to a minute by then).
 */
async function decideOnceExpired(invoiceId: string) {
  const row = (await settlementOf(invoiceId))!;
  for (const deadline = Date.now() + 100_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 2_000))) {
    const verdict = await chainVerdict(devnet.networks, row);
    if (verdict.landed || verdict.final) break;
  }
  return decide(invoiceId);
}

/** How long a test that waits for a blockhash to expire may take. */
const EXPIRY_TEST_MS = 120_000;

// The cases that wait for a blockhash to expire run at once, so that the file waits for one expiry, not for each.
describe(`Solana chain truth on ${testDriver}`, () => {
  it.concurrent(
    "delivers nothing on a remote facilitator's success naming another real transaction, or one the chain never saw",
    async ({ expect }) => {
      const n = solana();
      const stranger = await generateKeyPairSigner();
      // A real, confirmed transaction of the chain that paid someone else: the faucet's mint to a stranger.
      const elsewhere = await devnet.mint(n.network, stranger.address, 1_000n);
      const named = [elsewhere, getBase58Decoder().decode(new Uint8Array(64).fill(5))];
      // Both at once: one waits for its blockhash to expire.
      await Promise.all(
        named.map(async (transaction) => {
          const lying = await remotePayments(async (p, _inner, network) => ({
            success: true,
            transaction,
            network: network as `${string}:${string}`,
            payer: "",
          }));
          const inv = await newInvoice();
          const buyer = await payer();
          const required = await requiredFor(inv.id);
          const result = await payThrough(lying, inv, await buyer.payload(required), required);
          expect(result.kind, transaction).toBe("pending");
          expect((await getInvoice(database.db, inv.id))!.status, transaction).toBe("unpaid");
          // Neither answer proves that the payment will not land (the facilitator may have sent it under another
          // signature): the reconciler waits; it fails the one that named another transaction once its blockhash has
          // expired, and so it would the one the chain never saw.
          expect(await reconcile().then(() => settlementOf(inv.id))).toMatchObject({ status: "pending" });
          if (transaction === elsewhere)
            expect(await decideOnceExpired(inv.id)).toMatchObject({ status: "failed", lastError: expect.stringMatching(/did not pay the shop/) });
          expect((await getInvoice(database.db, inv.id))!.status, transaction).toBe("unpaid");
          // Nothing was sent for the payment: the buyer still holds everything, the stranger only the faucet's mint.
          expect(await devnet.balance(n.network, buyer.address)).toBe(50_000_000n);
        }),
      );
      expect(await devnet.balance(n.network, stranger.address)).toBe(1_000n);
    },
    EXPIRY_TEST_MS,
  );

  it.concurrent(
    "does not take a transaction the facilitator names for an unfinished settlement unless it paid the shop",
    async ({ expect }) => {
      const n = solana();
      const stranger = await generateKeyPairSigner();
      const elsewhere = await devnet.mint(n.network, stranger.address, 1_000n);
      // The facilitator says it is still waiting, naming a transaction: the settlement is left to the reconciler.
      const waiting = await remotePayments(async (_p, _inner, network) => ({
        success: false,
        errorReason: "transaction_confirmation_timeout",
        transaction: elsewhere,
        network: network as `${string}:${string}`,
      }));
      const inv = await newInvoice();
      const buyer = await payer();
      const required = await requiredFor(inv.id);
      expect((await payThrough(waiting, inv, await buyer.payload(required), required)).kind).toBe("pending");
      expect(await reconcile().then(() => settlementOf(inv.id))).toMatchObject({ status: "pending" });
      const decided = await decideOnceExpired(inv.id);
      expect(decided).toMatchObject({ status: "failed", lastError: expect.stringMatching(/did not pay the shop/) });
      expect((await getInvoice(database.db, inv.id))!.status).toBe("unpaid");
    },
    EXPIRY_TEST_MS,
  );

  it.concurrent(
    "A remote Solana facilitator naming a wrong signature for a payment it really sent: the invoice is paid once",
    async ({ expect }) => {
      const n = solana();
      const shopBefore = await devnet.balance(n.network, n.payTo);
      const stranger = await generateKeyPairSigner();
      // Another real, confirmed transaction of the chain (the faucet's mint to a stranger), and one the chain never saw.
      const elsewhere = await devnet.mint(n.network, stranger.address, 1_000n);
      const unseen = getBase58Decoder().decode(new Uint8Array(64).fill(6));
      let charged = 0n;
      // The facilitator really settles the payment, and answers success naming the wrong transaction; or, answering
      // before it knows the outcome, a timeout naming the wrong one (the reconciler then finds it).
      for (const [named, answered] of [
        [elsewhere, "success"],
        [unseen, "success"],
        [elsewhere, "timeout"],
      ] as const) {
        let sent = "";
        const misnaming = await remotePayments(async (p, inner) => {
          const settled = await inner.settle(p, p.accepted);
          sent = settled.transaction;
          return answered === "success"
            ? { ...settled, transaction: named }
            : { ...settled, success: false, errorReason: "transaction_confirmation_timeout", transaction: named };
        });
        const inv = await newInvoice();
        const buyer = await payer();
        const required = await requiredFor(inv.id);
        const payload = await buyer.payload(required);
        const result = await payThrough(misnaming, inv, payload, required);
        const label = `${answered} naming ${named}`;
        expect(sent, label).not.toBe(named);
        if (answered === "success") expect(result.kind, label).toBe("settled");
        else expect(await decide(inv.id), label).toMatchObject({ status: "settled" });
        // The settlement and the invoice name the transaction that carried the payment, not the one named.
        expect(await settlementOf(inv.id), label).toMatchObject({ status: "settled", transaction: sent });
        expect(await getInvoice(database.db, inv.id), label).toMatchObject({ status: "paid", paymentTx: sent });
        // Paid once: the same payment offered again is not taken, and the reconciler has nothing left to do.
        expect((await payThrough(misnaming, inv, payload, required)).kind, label).not.toBe("settled");
        expect(await decide(inv.id, 1), label).toMatchObject({ status: "settled", transaction: sent });
        expect(await devnet.balance(n.network, buyer.address), label).toBe(50_000_000n - inv.priceUsdc);
        charged += inv.priceUsdc;
      }
      expect(await devnet.balance(n.network, n.payTo)).toBe(shopBefore + charged);
      expect(await devnet.balance(n.network, stranger.address)).toBe(1_000n);
    },
    30_000,
  );

  it("still pays an invoice with a real Solana payment, and the reconciler settles a pending one whose transfer landed", async () => {
    const n = solana();
    const shopBefore = await devnet.balance(n.network, n.payTo);
    // Through the invoice route, with the process's own (in-process) facilitator.
    const inv = await newInvoice();
    const buyer = await payer();
    const answer = await payInvoice(payRequest(inv.id, encodePaymentSignatureHeader(await buyer.payload(await requiredFor(inv.id)))));
    expect(answer.status).toBe(200);
    expect((await getInvoice(database.db, inv.id))!.status).toBe("paid");
    expect(await devnet.balance(n.network, n.payTo)).toBe(shopBefore + inv.priceUsdc);

    // A remote facilitator that sends the payment but answers before it knows the outcome: pending, then the
    // reconciler finds the transfer on chain and pays the invoice.
    const slow = await remotePayments(async (p, inner) => {
      const settled = await inner.settle(p, p.accepted);
      return { ...settled, success: false, errorReason: "transaction_confirmation_timeout" };
    });
    const later = await newInvoice();
    const second = await payer();
    const required = await requiredFor(later.id);
    expect((await payThrough(slow, later, await second.payload(required), required)).kind).toBe("pending");
    expect((await getInvoice(database.db, later.id))!.status).toBe("unpaid");
    expect(await decide(later.id)).toMatchObject({ status: "settled" });
    expect((await getInvoice(database.db, later.id))!.status).toBe("paid");
    expect(await devnet.balance(n.network, n.payTo)).toBe(shopBefore + inv.priceUsdc + later.priceUsdc);
  }, 30_000);

  it("pays a payer's transaction ordinary fees only: one asking more compute or a higher price is refused, nothing sent", async () => {
    const n = solana();
    const rpc = createSolanaRpc(n.rpcUrl);
    const lamports = async () => (await rpc.getBalance(devnet.keys.solanaFacilitator.address).send()).value;
    const bounds = { units: SOLANA_MAX_COMPUTE_UNITS, microLamports: BigInt(SOLANA_MAX_PRIORITY_FEE_MICROLAMPORTS) };
    // The most a payer could ask unbounded (1,400,000 units at the x402 library's highest price: 7,000,000 lamports of
    // the shop's SOL for one payment), and just past each bound.
    const greedy = [
      [{ units: 1_400_000, microLamports: 5_000_000n }, "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction_too_high"],
      [{ ...bounds, units: bounds.units + 1 }, "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction_too_high"],
      [{ ...bounds, microLamports: bounds.microLamports + 1n }, "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high"],
    ] as const;
    for (const [budget, reason] of greedy) {
      const inv = await newInvoice();
      const buyer = await payer();
      const payload = await withComputeBudget(await buyer.payload(await requiredFor(inv.id)), buyer.signer, budget);
      const before = await lamports();
      const answer = await payInvoice(payRequest(inv.id, encodePaymentSignatureHeader(payload)));
      expect(answer.status, reason).toBe(402);
      expect(decodePaymentRequiredHeader(answer.headers.get("payment-required")!).error).toBe(reason);
      expect(await lamports(), reason).toBe(before);
      expect(await settlementOf(inv.id), reason).toBeUndefined();
      expect(await devnet.balance(n.network, buyer.address), reason).toBe(50_000_000n);
    }
    // At the bounds the payment is taken, and costs the fee payer two signatures and at most 4,000 lamports more.
    const inv = await newInvoice();
    const buyer = await payer();
    const payload = await withComputeBudget(await buyer.payload(await requiredFor(inv.id)), buyer.signer, bounds);
    const before = await lamports();
    expect((await payInvoice(payRequest(inv.id, encodePaymentSignatureHeader(payload)))).status).toBe(200);
    expect(before - (await lamports())).toBe(2n * 5_000n + 4_000n);
  }, 30_000);
});
