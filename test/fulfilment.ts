import { claimForPayment, createInvoice, markPaid, type CartItem } from "@/lib/checkout";
import type { Db } from "@/lib/platform/db";
import type { Wallet } from "@/lib/identity";
import { drainDue } from "@/lib/fulfilment/engine";
import type { Payout } from "@/lib/fulfilment/refund";
import type { FulfilmentProvider } from "@/lib/fulfilment/providers/types";

/** A devnet-looking EVM payment: network id of the local Base chain, a fixed payer address. */
export const TEST_PAYMENT = { network: "eip155:84530402", payer: "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF" } as const;

/** The wallet that makes TEST_PAYMENT. */
export const TEST_PAYER: Wallet = { chainId: TEST_PAYMENT.network, address: TEST_PAYMENT.payer };

/** A cart item as invoice creation takes it. */
export const item = (product_id: string, package_value: string, refill_input?: string): CartItem => ({
  product_id,
  package_value,
  ...(refill_input ? { refill_input } : {}),
});

/**
 * Marks an invoice paid exactly as the pay route does after settlement (claim, then `markPaid`: status `paid`,
 * payment recorded, its orders due), for tests of what happens after payment.
 */
export async function payInvoice(
  db: Db,
  invoiceId: string,
  payment: { network: string; payer: string; transaction?: string } = TEST_PAYMENT,
  now = new Date(),
): Promise<void> {
  const claim = await claimForPayment(db, invoiceId, { now });
  if (!("claim" in claim)) throw new Error(`invoice ${invoiceId} cannot be paid: ${claim.refused}`);
  const settled = await markPaid(
    db,
    invoiceId,
    claim.claim,
    { network: payment.network, payer: payment.payer, transaction: payment.transaction ?? `0x${"ab".repeat(32)}` },
    now,
  );
  if (!settled) throw new Error(`invoice ${invoiceId} was not marked paid`);
}

/**
 * An invoice created for `payer`, paid (by default as TEST_PAYMENT) and fulfilled by `provider`: what the refund and
 * eSIM tests start from. Returns its id.
 */
export async function fulfilledInvoice(
  db: Db,
  opts: { items: CartItem[]; provider: FulfilmentProvider; payer?: Wallet; payment?: { network: string; payer: string } },
): Promise<string> {
  const inv = await createInvoice({ items: opts.items, payer: opts.payer ?? TEST_PAYER }, db);
  await payInvoice(db, inv.id, opts.payment);
  await drainDue(db, { provider: opts.provider });
  return inv.id;
}

/** An invoice paid by `wallet` on its own chain, whose 10 USDC order fails and 20 USDC order is delivered. */
export function partlyFailedInvoice(db: Db, wallet: Wallet, provider: FulfilmentProvider): Promise<string> {
  return fulfilledInvoice(db, {
    items: [item("test-gift-card-code-fail", "10"), item("test-gift-card-code", "20")],
    provider,
    payer: wallet,
    payment: { network: wallet.chainId, payer: wallet.address },
  });
}

/**
 * A payout over an in-memory chain, for refund tests: `sign` makes a transfer (`0xrefund<n>`), `send` lands it at
 * once (recorded in `calls`, once per transfer however often it is sent), `status` tells. `failOnce()` makes the next
 * signing throw, as a wallet without funds or an unreachable RPC does.
 */
export function fakePayout() {
  const calls: { to: { network: string; payer: string }; amount: bigint }[] = [];
  const signed = new Map<string, { to: { network: string; payer: string }; amount: bigint }>();
  const landed = new Set<string>();
  let failNext = false;
  const payout: Payout = {
    confirmTimeoutMs: 1_000,
    async sign(to, amount, store) {
      if (failNext) {
        failNext = false;
        throw new Error("RPC unreachable");
      }
      const p = {
        transaction: `0xrefund${signed.size + 1}`,
        raw: Buffer.from(`transfer ${amount} to ${to.payer}`).toString("base64"),
        expiry: String(signed.size),
      };
      signed.set(p.transaction, { to, amount });
      return (await store(p)) ? p : null;
    },
    async send(_network, p) {
      const s = signed.get(p.transaction);
      if (!s) throw new Error(`unknown transfer ${p.transaction}`);
      if (!landed.has(p.transaction)) calls.push(s);
      landed.add(p.transaction);
    },
    async status(_network, versions) {
      const mined = versions.find((p) => landed.has(p.transaction));
      return mined ? { status: "landed", transaction: mined.transaction } : { status: "pending" };
    },
  };
  return { payout, calls, failOnce: () => (failNext = true) };
}
