import { randomBytes } from "node:crypto";
import { x402Client } from "@x402/core/client";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { FacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { generateKeyPairSigner } from "@solana/kit";
import { eq, inArray } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/platform/db";
import { invoices, settlements } from "@/lib/platform/db/schema";
import { testDriver, withTestCatalog } from "@/test/db";
import type { Devnet } from "@/lib/devnet";
import { processTestDevnet } from "@/test/devnet";
import { claimForPayment, getInvoice, invoiceClaim } from "@/lib/checkout";
import { balanceOf, createMerchant } from "@/lib/merchants";
import type { EvmNetwork, PaymentNetwork } from "@/lib/platform/networks";
import { exchange, findMatchingRequirement } from "@/lib/payments/exchange";
import { inProcessFacilitator } from "@/lib/payments/facilitator";
import { getPayments, paymentsWith, senderSync, type Payments } from "@/lib/payments/payments";
import { beginSettlement, finishSettlement, reconcileSettlements } from "@/lib/payments/settlements";
import { chainVerdict } from "@/lib/payments/verdict";
import { chainControl } from "@/test/adversarial/chain-control";
import { startAdversarialRpc, type AdversarialRpc, type RpcFaults } from "@/test/adversarial/rpc-proxy";
import { frontRun, signAuthorization, signedNonceSpend } from "@/test/adversarial/front-run";
import { settlementEffects } from "@/lib/checkout/settlement-effects";
import { payInvoice } from "./pay";
import { newTestInvoice, payRequest, requiredFor } from "@/test/x402-api";

// A payment counts only when the chain shows its transfer arriving at the shop, at the network's depth: against a payer
// who spends its authorization's nonce first, a reorganized block, a facilitator that claims a transfer that never
// happened, and payloads that do not verify. On the devnet's real chains, mining a block a second.

let database: Database;
let devnet: Devnet;
let payments: Payments;
processTestDevnet("chain-truth", (ctx) => ({ database, devnet } = ctx), withTestCatalog);
beforeAll(async () => {
  payments = await getPayments();
});

const evm = () => devnet.networks.find((n): n is EvmNetwork => n.kind === "evm")!;
const token = (n: EvmNetwork) => ({ address: n.usdc.address, name: n.usdc.name, version: n.usdc.version });

const newInvoice = () => newTestInvoice(database.db);

/** A funded payer on an EVM network, signing with the official x402 client. */
async function payer(n: EvmNetwork, funds = 50_000_000n) {
  const account = privateKeyToAccount(generatePrivateKey());
  await devnet.mint(n.network, account.address, funds);
  const client = new x402Client().register(n.network, new ExactEvmScheme(account)).setSpendControls({ allowedAssets: true, maxAmountPerPayment: false });
  return { account, payload: (required: PaymentRequired) => client.createPaymentPayload(required) };
}

type Authorization = { from: Address; to: Address; value: string; validAfter: string; validBefore: string; nonce: Hex };
const authorizationOf = (payload: PaymentPayload) => (payload.payload as { authorization: Authorization }).authorization;

/** What a paid route other than the invoice's offers for `amount` on the EVM network, and the buyer's payment of it. */
async function offer(buyer: Awaited<ReturnType<typeof payer>>, amount: bigint, url: string) {
  const requirement = (await payments.requirements(amount)).find((r) => r.network === evm().network)!;
  const payload = await buyer.payload({ x402Version: 2, resource: { url }, accepts: [requirement] } as PaymentRequired);
  return { requirement, payload };
}

const settlementsOf = (from: string) =>
  database.db
    .select()
    .from(settlements)
    .then((rows) => rows.filter((r) => r.identity.toLowerCase().includes(from.toLowerCase())));

const reconcile = () => reconcileSettlements(database.db, (s) => chainVerdict(devnet.networks, s), settlementEffects);

/** Reconciles until the payer's settlement is decided (or `rounds` pass, a block apart). */
async function decide(from: string, rounds = 8) {
  for (let i = 0; i < rounds; i++) {
    await reconcile();
    const [row] = await settlementsOf(from);
    if (row && row.status !== "pending" && row.status !== "settling") return row;
    await chainControl(evm().rpcUrl).waitBlocks(1);
  }
  return (await settlementsOf(from))[0];
}

describe(`chain truth on ${testDriver}`, () => {
  it("never pays an invoice whose payer spent the authorization's nonce first, in the same block as the shop's transfer", async () => {
    const n = evm();
    const inv = await newInvoice();
    const buyer = await payer(n);
    const payload = await buyer.payload(await requiredFor(inv.id, n.network));
    const { nonce } = authorizationOf(payload);
    const before = { payer: await devnet.balance(n.network, buyer.account.address), shop: await devnet.balance(n.network, n.payTo) };

    // The shop's transfer waits in the pool; the payer's own authorization on the same nonce goes ahead of it.
    const spend = { rpcUrl: n.rpcUrl, chainId: n.chainId, token: token(n), payer: buyer.account, nonce };
    const answer = await frontRun(spend, () => payInvoice(payRequest(inv.id, encodePaymentSignatureHeader(payload))));
    expect(answer.status).not.toBe(200);

    const decided = await decide(buyer.account.address);
    expect(decided).toMatchObject({ status: "failed", lastError: expect.stringMatching(/another transfer/) });
    const invoice = (await getInvoice(database.db, inv.id))!;
    expect(invoice.status).toBe("unpaid");
    expect(invoice.paidAt).toBeNull();
    // Nothing moved: the shop received nothing, the payer paid nothing.
    expect(await devnet.balance(n.network, n.payTo)).toBe(before.shop);
    expect(await devnet.balance(n.network, buyer.account.address)).toBe(before.payer);
  });

  it("credits no top-up whose payer spent the authorization's nonce first", async () => {
    const n = evm();
    const { merchant_id: merchantId } = await createMerchant(database.db, { name: "Front-run top-up" });
    const buyer = await payer(n);
    const { requirement, payload } = await offer(buyer, 25_000_000n, "http://127.0.0.1/dashboard/balance/topup");
    expect(findMatchingRequirement(payments, [requirement], payload)).toBeDefined();

    const spend = { rpcUrl: n.rpcUrl, chainId: n.chainId, token: token(n), payer: buyer.account, nonce: authorizationOf(payload).nonce };
    const result = await frontRun(spend, () =>
      exchange({
        db: database.db,
        payments,
        payload,
        requirement,
        purpose: "topup",
        reference: merchantId,
        details: { amountCents: "2500" },
        effects: settlementEffects,
      }),
    );
    expect(result.kind).not.toBe("settled");
    expect(await decide(buyer.account.address)).toMatchObject({ status: "failed" });
    expect(await balanceOf(database.db, merchantId)).toBe(0n);
  });

  it("refuses payloads that do not verify, with nothing recorded, the invoice not claimed and no top-up credited", async () => {
    const n = evm();
    const inv = await newInvoice();
    const buyer = await payer(n);
    const required = await requiredFor(inv.id, n.network);
    const good = await buyer.payload(required);
    const auth = authorizationOf(good);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const junk: [string, PaymentPayload][] = [];
    const withAuth = (a: Partial<Authorization>, signature: Hex) => ({ ...good, payload: { signature, authorization: { ...auth, ...a } } });
    // A random payer (a `from` that signed nothing), a mangled signature, a wrong amount, an expired authorization.
    const random = `0x${randomBytes(32).toString("hex")}` as Hex;
    junk.push([
      "random signer",
      withAuth(
        { from: stranger.address, nonce: random },
        (await signAuthorization(buyer.account, n.chainId, token(n), { to: auth.to, value: BigInt(auth.value), nonce: random })).signature,
      ),
    ]);
    junk.push(["bad signature", withAuth({ nonce: random }, `0x${"ab".repeat(65)}`)]);
    const lowValue = BigInt(auth.value) - 1n;
    junk.push([
      "wrong amount",
      withAuth(
        { value: lowValue.toString(), nonce: `0x${randomBytes(32).toString("hex")}` },
        (await signAuthorization(buyer.account, n.chainId, token(n), { to: auth.to, value: lowValue, nonce: random })).signature,
      ),
    ]);
    const past = BigInt(Math.floor(Date.now() / 1000) - 60);
    const expiredNonce = `0x${randomBytes(32).toString("hex")}` as Hex;
    junk.push([
      "expired",
      withAuth(
        { validBefore: past.toString(), nonce: expiredNonce },
        (await signAuthorization(buyer.account, n.chainId, token(n), { to: auth.to, value: BigInt(auth.value), nonce: expiredNonce, validBefore: past }))
          .signature,
      ),
    ]);

    for (const [what, payload] of junk) {
      const res = await payInvoice(payRequest(inv.id, encodePaymentSignatureHeader(payload as PaymentPayload)));
      expect(res.status, what).toBe(402);
      const [row] = await database.db.select({ claim: invoices.paymentClaim, status: invoices.status }).from(invoices).where(eq(invoices.id, inv.id));
      expect(row, what).toEqual({ claim: null, status: "unpaid" });
    }
    // The same refusals for a balance top-up (the one exchange of every paid route): nothing recorded, nothing credited.
    const { merchant_id: merchantId } = await createMerchant(database.db, { name: "Junk top-up" });
    for (const [what, payload] of junk) {
      const result = await exchange({
        db: database.db,
        payments,
        payload,
        requirement: required.accepts[0]!,
        purpose: "topup",
        reference: merchantId,
        details: { amountCents: "1000" },
        effects: settlementEffects,
      });
      expect(result.kind, what).toBe("invalid");
    }
    expect(await balanceOf(database.db, merchantId)).toBe(0n);
    expect(await settlementsOf(buyer.account.address)).toEqual([]);
    expect(await settlementsOf(stranger.address)).toEqual([]);
    // A payment that verifies, while another payment holds the invoice: refused before it is sent, nothing recorded.
    expect(await claimForPayment(database.db, inv.id)).toHaveProperty("claim");
    const held = await payInvoice(payRequest(inv.id, encodePaymentSignatureHeader(good)));
    expect([held.status, ((await held.json()) as { code?: string }).code]).toEqual([409, "PAYMENT_IN_PROGRESS"]);
    await database.db.update(invoices).set({ paymentClaim: null, paymentClaimUntil: null }).where(eq(invoices.id, inv.id));
    // The good one still pays.
    expect((await payInvoice(payRequest(inv.id, encodePaymentSignatureHeader(good)))).status).toBe(200);
  });

  it("refuses a Permit2 payment carrying an EIP-3009 authorization beside it, with nothing recorded and nothing sent", async () => {
    const n = evm();
    const inv = await newInvoice();
    const buyer = await payer(n);
    const required = await requiredFor(inv.id, n.network);
    const requirement = required.accepts[0]!;
    // The payer's Permit2 payment (the official client's, for the same offer), which the devnet's token and the x402
    // library verify and settle, with an EIP-3009 authorization beside it: the shop would record the payment under the
    // authorization's identity while the library executes the Permit2 transfer.
    const permit2 = await new ExactEvmScheme(buyer.account).createPaymentPayload(2, {
      ...requirement,
      extra: { ...requirement.extra, assetTransferMethod: "permit2" },
    });
    const eip3009 = await buyer.payload(required);
    const both = { ...eip3009, payload: { ...permit2.payload, authorization: authorizationOf(eip3009) } } as PaymentPayload;
    const before = await devnet.balance(n.network, buyer.account.address);

    const res = await payInvoice(payRequest(inv.id, encodePaymentSignatureHeader(both)));
    expect(res.status).toBe(402);
    expect(decodePaymentRequiredHeader(res.headers.get("payment-required")!).error).toMatch(
      /permit2Authorization: the shop takes EIP-3009 authorizations only/,
    );
    const [row] = await database.db.select({ claim: invoices.paymentClaim, status: invoices.status }).from(invoices).where(eq(invoices.id, inv.id));
    expect(row).toEqual({ claim: null, status: "unpaid" });
    // The same for a balance top-up: nothing recorded, nothing credited.
    const { merchant_id: merchantId } = await createMerchant(database.db, { name: "Permit2 top-up" });
    const result = await exchange({
      db: database.db,
      payments,
      payload: both,
      requirement,
      purpose: "topup",
      reference: merchantId,
      details: { amountCents: "1000" },
      effects: settlementEffects,
    });
    expect(result).toMatchObject({ kind: "invalid", reason: expect.stringMatching(/permit2Authorization/) });
    expect(await balanceOf(database.db, merchantId)).toBe(0n);
    expect(await settlementsOf(buyer.account.address)).toEqual([]);
    expect(await devnet.balance(n.network, buyer.account.address)).toBe(before);
  });

  it("delivers only at the network's depth: a payment whose block is reorganized away is decided again from the chain", async () => {
    const n = evm();
    expect(n.confirmations).toBe(2);
    const inv = await newInvoice();
    const buyer = await payer(n);
    const payload = await buyer.payload(await requiredFor(inv.id, n.network));
    const { nonce } = authorizationOf(payload);
    const shopBefore = await devnet.balance(n.network, n.payTo);
    // The payer's own spend of the nonce, from an account whose gas is in a block older than the reorg reaches.
    const raw = await signedNonceSpend({ rpcUrl: n.rpcUrl, chainId: n.chainId, token: token(n), payer: buyer.account, nonce });
    await chainControl(n.rpcUrl).waitBlocks(2);

    await chainControl(n.rpcUrl).pauseMining();
    let answer: Response;
    try {
      const paying = payInvoice(payRequest(inv.id, encodePaymentSignatureHeader(payload)));
      await chainControl(n.rpcUrl).waitForPool(1);
      await chainControl(n.rpcUrl).mine();
      // The shop has seen its transfer mined, one block deep: not deep enough, so nothing is delivered yet.
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await getInvoice(database.db, inv.id))!.status).toBe("unpaid");
      // That block is replaced by one holding the payer's own authorization on the same nonce.
      await chainControl(n.rpcUrl).reorg(1, [[raw, 0]]);
      await chainControl(n.rpcUrl).resumeMining();
      answer = await paying;
    } finally {
      await chainControl(n.rpcUrl).resumeMining();
    }
    expect(answer.status).toBe(409);
    const decided = await decide(buyer.account.address);
    expect(decided).toMatchObject({ status: "failed" });
    expect((await getInvoice(database.db, inv.id))!.status).toBe("unpaid");
    expect(await devnet.balance(n.network, n.payTo)).toBe(shopBefore);
  });

  it("delivers nothing on a remote facilitator's success for a transfer that never happened", async () => {
    const n = evm();
    const inner = inProcessFacilitator(
      devnet.networks,
      { evm: [privateKeyToAccount(generatePrivateKey())], solana: await generateKeyPairSigner() },
      senderSync,
    );
    const lying: FacilitatorClient = {
      verify: (p, r) => inner.verify(p, r),
      getSupported: () => inner.getSupported(),
      settle: async (p, r) => ({ success: true, transaction: `0x${randomBytes(32).toString("hex")}`, network: r.network, payer: authorizationOf(p).from }),
    } as FacilitatorClient;
    const remote = await paymentsWith({ networks: devnet.networks, facilitator: lying, devnet: true, inProcess: false });
    const inv = await newInvoice();
    const buyer = await payer(n);
    const required = await requiredFor(inv.id, n.network);
    const payload = await buyer.payload(required);
    const result = await exchange({
      db: database.db,
      payments: remote,
      payload,
      requirement: required.accepts[0]!,
      purpose: "invoice",
      reference: inv.id,
      claim: invoiceClaim(inv.id),
      effects: settlementEffects,
    });
    expect(result.kind).toBe("pending");
    await reconcile();
    expect((await getInvoice(database.db, inv.id))!.status).toBe("unpaid");
    expect(await devnet.balance(n.network, buyer.account.address)).toBe(50_000_000n);
  });

  it("never counts a fee whose payer spent the authorization's nonce first", async () => {
    const n = evm();
    const buyer = await payer(n);
    const { requirement, payload } = await offer(buyer, 2_000n, "http://127.0.0.1/x402/gift-cards/search");
    let served = 0;
    const spend = { rpcUrl: n.rpcUrl, chainId: n.chainId, token: token(n), payer: buyer.account, nonce: authorizationOf(payload).nonce };
    const result = await frontRun(spend, () =>
      exchange({
        db: database.db,
        payments,
        payload,
        requirement,
        purpose: "fee",
        reference: "giftCardSearch",
        effects: settlementEffects,
        beforeSettle: async () => (served++, true),
      }),
    );
    expect(served).toBe(1);
    expect(result.kind).not.toBe("settled");
    expect(await decide(buyer.account.address)).toMatchObject({ status: "failed", lastError: expect.stringMatching(/another transfer/) });
  });

  /**
   * A payment that reached the shop without the shop's own transaction (the payer sent its authorization itself), on
   * record as pending for a top-up: only the chain's events can decide it.
   */
  async function landedElsewhere(merchantId: string) {
    const n = evm();
    const buyer = await payer(n);
    const { payload } = await offer(buyer, 10_000_000n, "http://127.0.0.1/dashboard/balance/topup");
    const auth = authorizationOf(payload);
    const sentBlock = BigInt(await chainControl(n.rpcUrl).blockNumber());
    const begun = await beginSettlement(database.db, {
      network: n.network,
      identity: `${n.usdc.address}:${auth.from}:${auth.nonce}`,
      payer: auth.from,
      validUntil: new Date(Number(auth.validBefore) * 1000),
      purpose: "topup",
      reference: merchantId,
      amountUsdc: 10_000_000n,
      details: { amountCents: "1000" },
      payTo: n.payTo,
      sentBlock,
    });
    if (!("settlement" in begun)) throw new Error("not recorded");
    await finishSettlement(database.db, begun.settlement.id, { status: "pending", error: "the receipt did not come in time" }, settlementEffects);
    // The payer's own transaction carries the very authorization the shop was given: the shop is paid by it.
    await signedNonceSpend({
      rpcUrl: n.rpcUrl,
      chainId: n.chainId,
      token: token(n),
      payer: buyer.account,
      nonce: auth.nonce,
      to: n.payTo as `0x${string}`,
      value: 10_000_000n,
    }).then((raw) => chainControl(n.rpcUrl).rpc("eth_sendRawTransaction", [raw]));
    await chainControl(n.rpcUrl).waitBlocks(3);
    return begun.settlement.id;
  }

  it("decides a good settlement behind 150 that the chain cannot decide yet", async () => {
    const n = evm();
    const stuck: string[] = [];
    for (let i = 0; i < 150; i++) {
      const from = privateKeyToAccount(generatePrivateKey()).address;
      const begun = await beginSettlement(database.db, {
        network: n.network,
        identity: `${n.usdc.address}:${from}:0x${randomBytes(32).toString("hex")}`,
        payer: from,
        validUntil: new Date(Date.now() + 10 * 60_000),
        purpose: "fee",
        reference: "giftCardSearch",
        amountUsdc: 2_000n,
        payTo: n.payTo,
        sentBlock: 0n,
      });
      if ("settlement" in begun) {
        stuck.push(begun.settlement.id);
        await finishSettlement(database.db, begun.settlement.id, { status: "pending", error: "sent, not seen" }, settlementEffects);
      }
    }
    const { merchant_id: merchantId } = await createMerchant(database.db, { name: "Behind the stuck ones" });
    const good = await landedElsewhere(merchantId);
    // Two rounds of at most 100: the undecidable ones back off after their look, and the good one's turn comes.
    for (let round = 0; round < 2; round++) await reconcile();
    const [row] = await database.db.select().from(settlements).where(eq(settlements.id, good));
    expect(row).toMatchObject({ status: "settled" });
    expect(await balanceOf(database.db, merchantId)).toBe(1000n);
    const [first] = await database.db
      .select({ checks: settlements.checks, next: settlements.nextCheckAt })
      .from(settlements)
      .where(eq(settlements.id, stuck[0]!));
    expect(first!.checks).toBeGreaterThanOrEqual(1);
    expect(first!.next).not.toBeNull();
    // Out of the way of the tests after this one.
    await database.db.delete(settlements).where(inArray(settlements.id, stuck));
  });

  it("decides a settlement paid by the payer's own transaction, by its events, from the block it was sent after", async () => {
    // (The search goes in ranges a provider accepts from that block, however far back: transfer-proof.test.ts.)
    const { merchant_id: merchantId } = await createMerchant(database.db, { name: "Paid by the payer" });
    const id = await landedElsewhere(merchantId);
    await reconcile();
    expect((await database.db.select().from(settlements).where(eq(settlements.id, id)))[0]).toMatchObject({ status: "settled" });
    expect(await balanceOf(database.db, merchantId)).toBe(1000n);
  });

  describe("behind a JSON-RPC endpoint that lags, limits and falls behind", () => {
    let proxy: AdversarialRpc;
    let proxied: Payments;
    let networks: PaymentNetwork[];
    beforeAll(async () => {
      proxy = await startAdversarialRpc(evm().rpcUrl);
      networks = devnet.networks.map((n) => (n.network === evm().network ? { ...n, rpcUrl: proxy.url } : n));
      // The devnet's gas wallet (funded), its nonces shared with the process's payments as two servers share them.
      const facilitator = inProcessFacilitator(networks, { evm: [devnet.keys.evmFacilitator], solana: await generateKeyPairSigner() }, senderSync);
      proxied = await paymentsWith({ networks, facilitator, devnet: true, inProcess: true });
    });
    afterAll(() => proxy?.close());

    const faults: [string, RpcFaults][] = [
      ["receipts and look-ups 3 blocks late", { lag: { blocks: 3 } }],
      [
        "receipts late and every third read refused 429",
        {
          lag: { blocks: 2, lookups: "unmined" },
          tooMany: { methods: ["eth_getTransactionReceipt", "eth_getBlockByNumber", "eth_getLogs", "eth_getTransactionCount"], every: 3 },
        },
      ],
      ["a node 2 blocks behind", { behind: { blocks: 2 } }],
    ];
    for (const [what, f] of faults) {
      it(`decides a payment right, once: ${what}`, async () => {
        const n = evm();
        const inv = await newInvoice();
        const buyer = await payer(n);
        // Funds a few blocks old, as a real payer's are (a node behind does not see them before).
        await chainControl(n.rpcUrl).waitBlocks(3);
        const required = await requiredFor(inv.id, n.network);
        const payload = await buyer.payload(required);
        const before = await devnet.balance(n.network, n.payTo);
        proxy.set(f);
        try {
          await exchange({
            db: database.db,
            payments: proxied,
            payload,
            requirement: required.accepts[0]!,
            purpose: "invoice",
            reference: inv.id,
            claim: invoiceClaim(inv.id),
            effects: settlementEffects,
          });
          for (let i = 0; i < 15 && (await getInvoice(database.db, inv.id))!.status === "unpaid"; i++) {
            await reconcileSettlements(database.db, (s) => chainVerdict(networks, s), settlementEffects, new Date(Date.now() + 10 * 60_000));
            await chainControl(n.rpcUrl).waitBlocks(1);
          }
        } finally {
          proxy.set({});
        }
        // Read on the chain itself: charged once, received once, and the invoice paid.
        expect(await devnet.balance(n.network, buyer.account.address)).toBe(50_000_000n - inv.priceUsdc);
        expect(await devnet.balance(n.network, n.payTo)).toBe(before + inv.priceUsdc);
        expect((await getInvoice(database.db, inv.id))!.status).toBe("paid");
      }, 60_000);
    }
  });
});
