import { and, eq, inArray } from "drizzle-orm";
import type { Db, DbOrTx } from "@/lib/platform/db";
import { addressRefunds, invoices, paymentAddresses } from "@/lib/platform/db/schema";
import { newId } from "@/lib/platform/ids";
import { parseMinorUnits } from "@/lib/platform/money";
import type { PaymentNetwork } from "@/lib/platform/networks";
import { credit, methodCoin, methodNetworkKey } from "@/lib/merchants";
import { kickWorker } from "@/lib/fulfilment";
import {
  coinToCents,
  forwarderAddress,
  FORWARDER_FACTORY,
  getPayments,
  invoiceSalt,
  solanaPayUri,
  solanaReference,
  type AddressEffect,
  type PaymentAddressRow,
} from "@/lib/payments";
import { log } from "@/lib/platform/log";
import { coinPrice } from "@/lib/catalog";
import { claimForPayment, endUnpaidNow, getInvoice, markPaid, releaseClaim, type InvoiceRow } from "./payment";
import { effectiveStatus } from "./effective-status";

/**
 * After its expiry an invoice's address is watched this much longer: a payment that arrives late is still seen and
 * credited (never kept silently), and so is anything sent after a payment already counted.
 */
export const LATE_WATCH_MS = 7 * 24 * 60 * 60_000;
/**
 * An invoice paid by address ends this long after its quote (the payment's `expires_time`): a payment that arrives
 * in between (an exchange's withdrawal that took its time) is honoured while the coin's price is within
 * LATE_RATE_TOLERANCE_PERCENT of the locked rate; else it is credited, as one after the end is.
 */
export const LATE_GRACE_MS = 60 * 60_000;
/** How far the coin's price may have fallen below the locked rate for a late payment to be honoured. */
export const LATE_RATE_TOLERANCE_PERCENT = 2;
/**
 * What a shopper's payment address received beyond its invoice is refunded when it is worth at least this (at the
 * locked rate): a refund costs the shop a transfer's fee (dollars on Ethereum), and a payer could otherwise make it pay
 * one per dust transfer. Less is recorded (`kept`), shown in `credited`, not sent.
 */
export const REFUND_MIN_CENTS = 100n;
/**
 * A payment seen at the head that covers the invoice holds it (no expiry, no other payment) this long past each
 * round that still sees it: a payment made in time is counted once deep enough, even if that is after the expiry.
 */
const HOLD_MS = 2 * 60_000;

/** The claim an address's payment holds its invoice with (the x402 settlements' claims are their ids). */
const holdOf = (row: { network: string; address: string }) => `address:${row.network}:${row.address}`;

/** How an invoice is paid by address: the network, the coin, and its price in US dollars, locked for the invoice's life. */
export type PayByAddress = { network: PaymentNetwork; coin: "USDC" | "ETH"; usdPerCoin: string };

/** Ether has 18 decimals on every EVM network. */
const ETH_DECIMALS = 18;

/** Ether amounts are asked in 8 decimals (10^10 wei), as wallets and exchanges show them; less than a thousandth of a cent. */
const ETH_STEP = 10n ** 10n;

/**
 * What an amount in USDC atomic units (dollars' millionths) comes to in the coin's smallest unit at `usdPerCoin`,
 * rounded up (ether to 8 decimals): the shop is never paid short by the rounding.
 */
export function usdcToCoin(usdcAtomic: bigint, coin: "USDC" | "ETH", usdPerCoin: string): bigint {
  if (coin === "USDC") return usdcAtomic;
  const rate = parseMinorUnits(usdPerCoin, 8);
  if (rate === undefined || rate <= 0n) throw new Error(`unreadable price ${usdPerCoin}`);
  // wei = usdc × 10^18 / 10^6 / (rate / 10^8) = usdc × 10^20 / rate, in steps of ETH_STEP
  const divisor = rate * ETH_STEP;
  return ((usdcAtomic * 10n ** 20n + divisor - 1n) / divisor) * ETH_STEP;
}

/**
 * A shopper's invoice paid by address, as /x402 (and the MCP tools) answer it in `payment`: the method, network and
 * address, the transfer to make and what arrived (paymentByAddress), where refunds go, and once paid the settlement's
 * fields of an x402 payment (`transaction` null: a transfer to the address pays it). Undefined for an invoice without
 * an address.
 */
export async function shopperAddressPayment(db: DbOrTx, inv: InvoiceRow, now = new Date()): Promise<Record<string, unknown> | undefined> {
  const row = (await paymentAddressesOf(db, [inv.id])).get(inv.id);
  if (!row) return undefined;
  const payments = await getPayments();
  const n = [...payments.networks, ...payments.addressNetworks].find((x) => x.network === row.network);
  if (!n) return undefined;
  return {
    method: row.method,
    network: row.network,
    network_name: n.name,
    address: row.address,
    ...paymentByAddress(row, n, { expiresAt: inv.expiresAt, status: effectiveStatus(inv, now) }),
    refund_address: row.refundAddress,
    transaction: inv.paymentNetwork === row.network ? inv.paymentTx : null,
    payer: inv.paymentNetwork === row.network ? inv.paymentPayer : null,
  };
}

/**
 * How an invoice of this method is paid by address: a USDC method on an EVM network, when this process has a gas
 * wallet there to flush it (without one it is paid through x402 only: undefined); an ether method always, at the ether
 * price of now (locked on the invoice); or why it cannot be (no gas wallet, no fresh price), ending with `instead`.
 */
export async function payByAddressFor(db: Db, method: string, instead: string): Promise<PayByAddress | { refused: string } | undefined> {
  const m = methodCoin(method);
  if (!m) return undefined;
  const payments = await getPayments();
  // USDC on Solana: a Solana Pay reference of the invoice's own, the transfer going straight to payTo (nothing to flush).
  const solana = m.key === "solana" ? payments.networks.find((x) => x.kind === "solana") : undefined;
  if (solana) return { network: solana, coin: "USDC", usdPerCoin: "1" };
  const n = payments.addressNetworks.find((x) => x.key === m.key);
  const network = n && payments.gasSender(n) ? n : undefined;
  // A USDC method that x402 pays is offered without an address where no gas wallet can flush one.
  if (m.coin === "USDC" && (network || methodNetworkKey(method))) return network ? { network, coin: "USDC", usdPerCoin: "1" } : undefined;
  if (!network) {
    return {
      refused: `Payment method ${method} is not available on this shop: it is paid to the invoice's own address, and this shop has no gas wallet on ${n?.name ?? m.key} to collect it. ${instead}.`,
    };
  }
  if (m.coin === "USDC") return { network, coin: "USDC", usdPerCoin: "1" };
  const price = await coinPrice(db, "ETH");
  if ("refused" in price) return { refused: `Ether cannot be priced now (${price.refused}): pay in USDC, or try again in a few minutes.` };
  return { network, coin: "ETH", usdPerCoin: price.usd };
}

/**
 * Gives an invoice its own address for a plain transfer on an EVM network (a forwarder of the network's payTo, see
 * lib/payments/forwarders.ts), in the transaction that creates it: what a transfer of the amount due, in the coin at
 * the locked price, to that address pays.
 */
export async function openPaymentAddress(
  tx: Db,
  inv: { id: string; method: string; amountDueUsdc: bigint; quoteExpiresAt: Date; expiresAt: Date; refundAddress: string | null },
  pay: PayByAddress,
): Promise<void> {
  const n = pay.network;
  const ether = pay.coin === "ETH";
  // EVM: a forwarder of payTo at a CREATE2 address; Solana: a Solana Pay reference, the transfer going to payTo.
  const salt = n.kind === "evm" ? invoiceSalt(inv.id) : solanaReference(inv.id);
  await tx.insert(paymentAddresses).values({
    network: n.network,
    address: n.kind === "evm" ? forwarderAddress(n.payTo as `0x${string}`, salt as `0x${string}`) : salt,
    invoiceId: inv.id,
    method: inv.method,
    asset: ether ? "native" : n.kind === "evm" ? n.usdc.address : n.usdc.mint,
    currency: pay.coin,
    decimals: ether ? ETH_DECIMALS : n.usdc.decimals,
    payTo: n.payTo,
    salt,
    factory: n.kind === "evm" ? FORWARDER_FACTORY : "solana-pay",
    amountDue: usdcToCoin(inv.amountDueUsdc, pay.coin, pay.usdPerCoin),
    exchangeRate: ether ? pay.usdPerCoin : "1",
    // (Solana's depth is `confirmed`: one confirmation, as for x402 payments.)
    confirmations: n.kind === "evm" ? Math.max(1, n.confirmations ?? 1) : 1,
    quoteExpiresAt: inv.quoteExpiresAt,
    refundAddress: inv.refundAddress,
    watchUntil: new Date(inv.expiresAt.getTime() + LATE_WATCH_MS),
  });
}

export { coinToCents } from "@/lib/payments";

/** The addresses of these invoices, by invoice id (one query, for a page of invoices). */
export async function paymentAddressesOf(db: DbOrTx, invoiceIds: readonly string[]): Promise<Map<string, PaymentAddressRow>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(paymentAddresses)
    .where(inArray(paymentAddresses.invoiceId, [...invoiceIds]));
  return new Map(rows.map((r) => [r.invoiceId, r]));
}

/**
 * How to pay an invoice by a plain transfer to its address, and what the address received, as the merchant API and
 * the webhook carry them in `payment` (beside the price in USD): the amount in the coin (`amount`, and `altcoinPrice`
 * as the real service's clients read it) and in its smallest unit, the locked rate, an EIP-681 payment URI (a wallet
 * scanning it fills in the transfer), the confirmations a payment needs and has, and what arrived so far: counted at
 * depth (`received`), still short of what it asks (`missing`), credited to the balance as extra (`credited`).
 */
export function paymentByAddress(row: PaymentAddressRow, n: PaymentNetwork, invoice: { expiresAt: Date; status: string }) {
  const expiresAt = quoteEnd(row, invoice);
  const coin = (v: bigint) => formatCoin(v, row.decimals);
  const uri =
    n.kind === "solana"
      ? solanaPayUri(row, coin(row.amountDue))
      : row.asset === "native"
        ? `ethereum:${row.address}@${n.chainId}?value=${row.amountDue}`
        : `ethereum:${row.asset}@${n.chainId}/transfer?address=${row.address}&uint256=${row.amountDue}`;
  // The head the watcher read last is its depth block's `confirmations - 1` blocks on.
  const head = row.checkedBlock === null ? null : row.checkedBlock + BigInt(row.confirmations) - 1n;
  const confirmations =
    row.seen > row.received && row.seenBlock !== null && head !== null
      ? Math.min(row.confirmations - 1, Number(head - row.seenBlock + 1n))
      : row.received > 0n
        ? row.confirmations
        : 0;
  // Missing only while the invoice waits for payment (one paid another way, or ended, misses nothing).
  const missing = invoice.status === "unpaid" && row.applied === 0n && row.received < row.amountDue ? row.amountDue - row.received : 0n;
  return {
    // Solana Pay: the transfer goes to payTo (its USDC account), tied to the invoice by its reference key.
    ...(n.kind === "solana" ? { address: row.payTo, reference: row.address } : {}),
    coin: row.currency,
    amount: coin(row.amountDue),
    altcoinPrice: coin(row.amountDue),
    amount_atomic: row.amountDue.toString(),
    exchange_rate: row.exchangeRate,
    ...(row.asset === "native" ? {} : { contract_address: row.asset, contractAddress: row.asset }),
    payment_uri: uri,
    paymentUri: uri,
    expires_time: expiresAt.toISOString(),
    confirmations_required: row.confirmations,
    confirmations,
    received: coin(row.received),
    received_atomic: row.received.toString(),
    seen: coin(row.seen),
    missing: coin(missing),
    credited: coin(row.credited),
  };
}

/** Until when the address's locked rate is offered (addresses opened before quotes had an end of their own: the invoice's). */
export const quoteEnd = (row: Pick<PaymentAddressRow, "quoteExpiresAt">, invoice: { expiresAt: Date }): Date => row.quoteExpiresAt ?? invoice.expiresAt;

/** The coin's price now (US dollars per coin), or why there is none: what a late payment is weighed against. */
export type PriceNow = (db: Db, coin: "ETH") => Promise<{ usd: string } | { refused: string }>;

/**
 * Whether a payment that arrived after the quote still gets its price: yes for USDC (its rate is 1); for ether while
 * the price now is at most LATE_RATE_TOLERANCE_PERCENT below the locked rate (the shop still gets what it asked, give
 * or take that); undefined when no price can be read now (it is weighed again next round, until the invoice ends).
 */
async function lateRateHolds(tx: Db, row: PaymentAddressRow, priceNow: PriceNow): Promise<boolean | undefined> {
  if (row.currency !== "ETH") return true;
  const price = await priceNow(tx, "ETH");
  if ("refused" in price) return undefined;
  const locked = parseMinorUnits(row.exchangeRate, 8);
  const current = parseMinorUnits(price.usd, 8);
  if (locked === undefined || current === undefined) return undefined;
  return current * 100n >= locked * BigInt(100 - LATE_RATE_TOLERANCE_PERCENT);
}

/**
 * The amount rules of a payment by address (docs/merchant-api.md "Paying by address"), decided in the transaction that
 * records what the address received at the network's depth:
 * - What arrives adds up; the invoice is paid once the sum covers what it asks, while it waits for payment: a payment
 *   that covers it seen at the head before the quote's end (`expires_time`) holds the invoice until it is deep enough,
 *   as an x402 settlement does (an x402 payment meanwhile is refused as busy), even past the invoice's end. An x402
 *   settlement that holds the invoice goes first: the address waits for its outcome.
 * - Late: one seen after the quote's end and before the invoice's (LATE_GRACE_MS on) is honoured the same way while
 *   the coin's price is within LATE_RATE_TOLERANCE_PERCENT of the locked rate (USDC always); beyond it the invoice
 *   ends at once (`expired`) and what arrived is credited. With no price to weigh it against, it waits a round.
 * - What it received beyond the price, anything that arrives after the invoice was paid (by the address or another
 *   way), and anything it received when the invoice ended unpaid (short at expiry, or late) is credited to the
 *   merchant's balance at the locked rate. Nothing received is kept silently: the address shows it all (`received`,
 *   `credited`), and a remainder under a cent is recorded as credited though it moves no cent.
 * - A shopper's invoice (no merchant): all of that is refunded instead, in the coin, to the refund address the payer
 *   gave (address_refunds); without one it waits for the operator.
 */
export const addressPaymentEffectWith = (priceNow: PriceNow): AddressEffect => ({
  async decide(tx, row, now) {
    const inv = await getInvoice(tx, row.invoiceId);
    if (!inv) throw new Error(`payment address ${row.address} names no invoice ${row.invoiceId}`);
    const hold = holdOf(row);
    if (inv.status === "unpaid" && row.applied === 0n) {
      const held = inv.paymentClaim === hold;
      const covered = row.received >= row.amountDue || row.seen >= row.amountDue;
      if (covered && !held && quoteEnd(row, inv) <= now && inv.expiresAt > now) {
        // Late: honoured at the locked rate only while the price has not fallen beyond the tolerance.
        const holds = await lateRateHolds(tx, row, priceNow);
        if (holds === undefined) return {};
        if (!holds) {
          const { ended, after } = await endUnpaidNow(tx, inv.id, now);
          // Another payment holds it (an x402 settlement): its outcome comes first; this is weighed again next round.
          if (!ended) return {};
          const why = `paid after the quote expired, when the price of ${row.currency} had fallen more than ${LATE_RATE_TOLERANCE_PERCENT}% below the locked rate`;
          if (row.received <= 0n) return { after };
          return { ...(await creditExtra(tx, inv, row, row.received, why)), after };
        }
      }
      if (row.received >= row.amountDue && (inv.expiresAt > now || held)) {
        const paid = await markPaid(tx, inv.id, held ? hold : null, { network: row.network, transaction: null, payer: undefined }, now);
        // An x402 settlement holds it: its outcome comes first (paid: all this is extra; failed: this pays it).
        if (!paid) return {};
        const extra = row.received - row.amountDue;
        return { applied: row.amountDue, ...(await creditExtra(tx, inv, row, extra, "paid more than the invoice asked")), after: [kickWorker] };
      }
      if (held && row.seen < row.amountDue) {
        // What held it is gone from the chain (reorganized away before its depth): the invoice is free again.
        await releaseClaim(tx, inv.id, hold);
        return {};
      }
      if (row.seen >= row.amountDue && !held) {
        // Covered at the head, not yet at depth: the invoice waits for it.
        await claimForPayment(tx, inv.id, { claim: hold, now });
      } else if (held) {
        await tx
          .update(invoices)
          .set({ paymentClaimUntil: new Date(now.getTime() + HOLD_MS) })
          .where(and(eq(invoices.id, inv.id), eq(invoices.status, "unpaid"), eq(invoices.paymentClaim, hold)));
      }
      if (row.seen >= row.amountDue) return {};
      // Short: it waits until the invoice ends (then it is credited below).
      return {};
    }
    if (inv.status === "unpaid") return {};
    const undecided = row.received - row.applied - row.credited;
    if (undecided <= 0n) return {};
    const why =
      row.applied > 0n
        ? "paid after the invoice was paid"
        : inv.paidAt
          ? "paid after the invoice was paid another way"
          : "paid to an invoice that ended unpaid";
    return creditExtra(tx, inv, row, undecided, why);
  },
});

/** The amount rules, weighing late payments against the stored ether price (lib/catalog/coin-prices.ts). */
export const addressPaymentEffect: AddressEffect = addressPaymentEffectWith((db, coin) => coinPrice(db, coin));

/**
 * Credits `extra` (in the coin) to the invoice's merchant; a shopper's is owed back to the refund address the payer
 * gave, in the coin (address_refunds, paid by lib/fulfilment's refund loop; without an address it waits for the
 * operator). Either way it counts as decided (`credited`), so the address's funds are flushed to payTo.
 */
async function creditExtra(
  tx: Db,
  inv: { id: string; merchantId: string | null },
  row: PaymentAddressRow,
  extra: bigint,
  why: string,
): Promise<{ credited?: bigint; creditedCents?: bigint }> {
  if (extra <= 0n) return {};
  if (!inv.merchantId) {
    // A refund costs the shop a transfer's fee: what is worth less than REFUND_MIN_CENTS is recorded, kept, not sent.
    const small = coinToCents(row, extra) < REFUND_MIN_CENTS;
    await tx.insert(addressRefunds).values({
      id: newId("ret"),
      invoiceId: inv.id,
      network: row.network,
      address: row.address,
      asset: row.asset,
      currency: row.currency,
      decimals: row.decimals,
      amount: extra,
      toAddress: row.refundAddress,
      reason: `${why}: ${formatCoin(extra, row.decimals)} ${row.currency}${small ? `, under the refund minimum of ${REFUND_MIN_CENTS} cents: kept` : ""}`,
      ...(small ? { status: "kept" } : {}),
    });
    if (!row.refundAddress && !small) {
      log.warn(
        { invoice_id: inv.id, network: row.network, address: row.address, amount: String(extra) },
        "a refund of a shopper's payment by address has no refund address: it waits for the operator",
      );
    }
    return { credited: row.credited + extra };
  }
  const cents = coinToCents(row, extra);
  if (cents > 0n) {
    await credit(tx, {
      merchantId: inv.merchantId,
      amountCents: cents,
      invoiceId: inv.id,
      note: `${why}: ${formatCoin(extra, row.decimals)} ${row.currency} to ${row.address} on ${row.network}`,
    });
  }
  return { credited: row.credited + extra, creditedCents: row.creditedCents + cents };
}

/** An amount in the coin's units, as a decimal (no trailing zeros). */
export function formatCoin(amount: bigint, decimals: number): string {
  const s = amount.toString().padStart(decimals + 1, "0");
  const whole = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : whole;
}
