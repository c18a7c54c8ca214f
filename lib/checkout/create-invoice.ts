import { eq, sql, type SQL } from "drizzle-orm";
import { addLogContext, log } from "@/lib/platform/log";
import { formatPackage, getProduct, type Product, isIccid, reserveCode, fxSource } from "@/lib/catalog";
import { config } from "@/lib/platform/config";
import { getDb, type Db } from "@/lib/platform/db";
import { queryRows } from "@/lib/platform/db/client";
import { affiliates, inventoryCodes, invoices, orders } from "@/lib/platform/db/schema";
import { walletOwnerKey, type Wallet } from "@/lib/identity";
import { ipNetwork, ipSubject } from "@/lib/platform/ratelimit";
import { AFFILIATE_CODE, MAX_INVOICE_USDC, MIN_INVOICE_USDC, type CartItem } from "@/lib/api/x402";
import { newId } from "@/lib/platform/ids";
import { DomainError } from "@/lib/platform/errors";
import { validateRecipient } from "./recipient";
import { listWalletEsims } from "./wallet-esims";
import { resolvePackage } from "./resolve-package";
import { holdForInvoice } from "@/lib/gift-cards";
import { markPaid } from "./payment";
import { usdcToCents } from "@/lib/platform/money";
import { LATE_GRACE_MS, openPaymentAddress, type PayByAddress } from "./address-payment";
import { amountDueUsdc } from "./amount-due";

export type CreatedInvoice = {
  id: string;
  priceUsdc: bigint;
  /** Merchant invoices: the price in US cents (what the balance pays). */
  priceCents: bigint | null;
  /** What a gift card pays of it (US cents), and whether that was all of it (the invoice is paid). */
  giftCardCents: bigint | null;
  paidByCard: boolean;
  expiresAt: Date;
  items: { orderId: string; productId: string; productName: string; packageValue: string; priceUsdc: bigint; recipient: string | null }[];
};

/** A merchant API invoice: who it is for, how it will be paid, where its final state goes, and what each item costs in cents. */
export type MerchantTerms = {
  merchantId: string;
  paymentMethod: string;
  webhookUrl: string | null;
  priceCents: (product: Product, priceUsdc: bigint) => bigint;
  /** The invoice gets an address of its own for a plain transfer of this coin on this network (./address-payment.ts). */
  payByAddress?: PayByAddress;
};

/** How a shopper asked to pay: a method (x402 then pays on its network only), its address, where refunds go. */
export type ShopperPaying = { method: string; payByAddress?: PayByAddress; refundAddress: string | null };

/** The affiliate a code names, when it is well-formed and known; anything else is ignored, never refused. */
async function knownAffiliate(db: Db, code: string | null | undefined): Promise<string | null> {
  if (!code || !AFFILIATE_CODE.test(code)) return null;
  const [row] = await db.select({ id: affiliates.id }).from(affiliates).where(eq(affiliates.id, code));
  return row?.id ?? null;
}

/** The ICCID an eSIM item tops up (19 or 20 digits with a valid Luhn check digit), or null for a new eSIM. */
function esimToTopUp(product: Product, input: string | undefined, path: (string | number)[]): string | null {
  if (product.kind !== "esim" || input === undefined || input.trim() === "") return null;
  const iccid = input.replace(/[\s-]/g, "");
  if (!isIccid(iccid)) {
    throw new DomainError("invalid_recipient", "not an ICCID: 19 or 20 digits starting 89, with a valid check digit", {
      path,
      details: { reason: "not_iccid" },
    });
  }
  return iccid;
}

/**
 * Quotes a cart and locks its price on a new unpaid invoice for the paying wallet: every item is checked
 * against the catalog (product, package, stock, recipient), and the invoice and its orders are written together.
 */
export async function createInvoice(
  input:
    | {
        items: CartItem[];
        payer: Wallet;
        affiliateCode?: string | null;
        giftCardCode?: string;
        now?: Date;
        clientIp?: string;
        /** A payment method named (paid on its network; by address as `payByAddress` says, refunds to `refundAddress`). */
        paying?: ShopperPaying;
      }
    | { items: CartItem[]; merchant: MerchantTerms; giftCardCode?: string; now?: Date; onCreated?: (tx: Db, invoiceId: string) => Promise<void> },
  db?: Db,
): Promise<CreatedInvoice> {
  db ??= await getDb();
  const merchant = "merchant" in input ? input.merchant : null;
  const paying = "paying" in input ? input.paying : undefined;
  const payByAddress = merchant?.payByAddress ?? paying?.payByAddress;
  // Whose invoice it is: a wallet (`eip155:0x…`, `solana:…`) or a merchant (`merchant:mer_…`); eSIM top-ups look there.
  const payer = merchant ? `merchant:${merchant.merchantId}` : walletOwnerKey((input as { payer: Wallet }).payer);
  if (!payer) throw new DomainError("missing_identity", "No paying wallet: pay the fee, sign in with SIGN-IN-WITH-X, or send X-Access-Token");

  const products = new Map<string, Product>();
  for (const slug of new Set(input.items.map((i) => i.product_id))) {
    const p = await getProduct(slug, db);
    if (p) products.set(slug, p);
  }

  const lines = input.items.map((item, i) => {
    const product = products.get(item.product_id);
    if (!product) throw new DomainError("unknown_product", `no product has the slug ${JSON.stringify(item.product_id)}`, { path: ["items", i, "product_id"] });
    if (!product.inStock) throw new DomainError("out_of_stock", `${product.name} is out of stock`, { path: ["items", i, "product_id"] });
    const pkg = resolvePackage(product, item.package_value, ["items", i, "package_value"]);
    const recipient =
      validateRecipient(product, item.refill_input, ["items", i, "refill_input"]) ?? esimToTopUp(product, item.refill_input, ["items", i, "refill_input"]);
    return { product, pkg, recipient, index: i };
  });
  // The shop's own gift card is bought with money, never with one of its cards: a card would otherwise turn into new
  // cards (split, or moved into another currency at the day's rate) with no money coming in. Refused before the code
  // is looked up, so the refusal says nothing about the code.
  const ownCard = input.giftCardCode !== undefined ? lines.find((l) => l.product.supplier === "store") : undefined;
  if (ownCard) {
    throw new DomainError(
      "invalid_param",
      `a gift card of the shop cannot pay for ${ownCard.product.name}: pay it with ${merchant ? "the balance or USDC" : "your wallet"}, apart from what the card pays for.`,
      { path: ["gift_card_code"], details: { reason: "store_gift_card" } },
    );
  }
  // An eSIM item naming an ICCID adds its bundle to that eSIM: one the paying wallet bought, of the same product.
  const topUps = lines.filter((l) => l.product.kind === "esim" && l.recipient);
  const held = topUps.length > 0 ? new Map((await listWalletEsims(db, payer)).map((e) => [e.iccid, e.productId])) : new Map<string, string>();
  for (const l of topUps) {
    if (held.get(l.recipient!) !== l.product.slug) {
      throw new DomainError(
        "invalid_recipient",
        `${merchant ? "this account" : "the paying wallet"} holds no ${l.product.name} eSIM with the ICCID ${l.recipient}. Leave it out to buy a new eSIM.`,
        { path: ["items", l.index, "refill_input"], details: { reason: "not_held" } },
      );
    }
  }

  const priceUsdc = lines.reduce((sum, l) => sum + l.pkg.priceUsdc, 0n);
  if (priceUsdc < MIN_INVOICE_USDC) throw new DomainError("amount_too_small", "An invoice must come to at least 0.01 USDC");
  // The 1000 USDC bound is x402's (what one payment settles): a merchant's invoice paid from the balance (a gift card's
  // rest too) has none.
  if (priceUsdc > MAX_INVOICE_USDC && merchant?.paymentMethod !== "balance" && merchant?.paymentMethod !== "gift_card") {
    throw new DomainError(
      "amount_too_large",
      merchant
        ? "This invoice comes to more than 1000 USDC, the most one payment in USDC (or its worth in ether) can take: pay it from the balance, or split it"
        : "This cart comes to more than 1000 USDC, the most one invoice can take: split it",
    );
  }

  const now = input.now ?? new Date();
  const id = newId("inv");
  // The price is quoted for the invoice's lifetime; one paid by address ends LATE_GRACE_MS after its quote, so that a
  // transfer a little late is still honoured (lib/checkout/address-payment.ts).
  const quoteExpiresAt = new Date(now.getTime() + config().invoiceTtlMinutes * 60_000);
  const expiresAt = payByAddress ? new Date(quoteExpiresAt.getTime() + LATE_GRACE_MS) : quoteExpiresAt;
  const affiliateId = "affiliateCode" in input ? await knownAffiliate(db, input.affiliateCode) : null;
  const orderRows = lines.map((l, position) => ({
    id: newId("ord"),
    invoiceId: id,
    position,
    productId: l.product.slug,
    productName: l.product.name,
    productKind: l.product.kind,
    packageValue: l.pkg.value,
    faceValueMinor: l.pkg.faceValueMinor,
    currency: l.product.currency,
    priceUsdc: l.pkg.priceUsdc,
    recipient: l.recipient,
    supplier: l.product.supplier,
    priceCents: merchant ? merchant.priceCents(l.product, l.pkg.priceUsdc) : null,
  }));
  const priceCents = merchant ? orderRows.reduce((sum, o) => sum + (o.priceCents ?? 0n), 0n) : null;
  // Kept only where it is needed: on a wallet's invoice that reserves stocked codes.
  const clientIp = "clientIp" in input ? input.clientIp : undefined;
  const clientAddress = clientIp && orderRows.some((o) => o.supplier === "inventory") ? ipSubject(clientIp) : null;
  const clientNetwork = clientIp && clientAddress ? ipNetwork(clientIp) : null;

  let giftCardCents: bigint | null = null;
  let paidByCard = false;
  await db.transaction(async (tx) => {
    await tx.insert(invoices).values({
      id,
      payer,
      priceUsdc,
      affiliateId,
      expiresAt,
      createdAt: now,
      updatedAt: now,
      clientAddress,
      clientNetwork,
      ...(merchant
        ? { source: "api", merchantId: merchant.merchantId, paymentMethod: merchant.paymentMethod, webhookUrl: merchant.webhookUrl, priceCents }
        : paying
          ? { paymentMethod: paying.method }
          : {}),
    });
    await tx.insert(orders).values(orderRows.map((o) => ({ ...o, createdAt: now, updatedAt: now })));
    // A wallet's unpaid invoices hold a bounded number of stocked codes (free session tokens make invoices free), and
    // so do those of one client address (wallets are free too) and of one network (so are an IPv6 /48's /64s).
    if (!merchant) await checkReservationLimits(tx as unknown as Db, { payer, clientAddress, clientNetwork }, orderRows, now);
    // Each inventory item holds its own code until the invoice is paid or expires; a cart that cannot be
    // served in full is refused whole (the transaction rolls back every reservation).
    for (const [i, o] of orderRows.entries()) {
      if (o.supplier !== "inventory") continue;
      if (!(await reserveCode(tx as unknown as Db, o, now))) {
        throw new DomainError("out_of_stock", `${o.productName} ${formatPackage(o.packageValue, o.currency)} is sold out`, {
          path: ["items", i, "package_value"],
        });
      }
    }
    // A gift card pays what it can (its value set aside until the invoice is paid or ends); one that pays it all pays it now.
    if (input.giftCardCode !== undefined) {
      const due = merchant ? priceCents! : usdcToCents(priceUsdc, "down");
      const held = await holdForInvoice(tx as unknown as Db, input.giftCardCode, id, due, fxSource());
      giftCardCents = held.coversCents;
      if (held.coversCents === due) {
        // (Named by the invoice itself: the card's id is not shown to whoever reads the invoice's status.)
        const settlement = { network: "gift_card", transaction: `gift_card:${id}`, payer: undefined };
        if (!(await markPaid(tx as unknown as Db, id, null, settlement, now))) throw new Error(`Invoice ${id} could not be marked paid`);
        paidByCard = true;
      }
    }
    // What is left to pay by a plain transfer goes to an address of the invoice's own.
    if (payByAddress && !paidByCard) {
      const amountDue = amountDueUsdc({ priceUsdc, giftCardCents });
      await openPaymentAddress(
        tx as unknown as Db,
        {
          id,
          method: merchant?.paymentMethod ?? paying!.method,
          amountDueUsdc: amountDue,
          quoteExpiresAt,
          expiresAt,
          refundAddress: paying?.refundAddress ?? null,
        },
        payByAddress,
      );
    }
    // Last, with the invoice as it stands (a gift card's share set aside): what the caller does in the same
    // transaction, such as paying the rest from the balance, so that the invoice exists only as it leaves it.
    if ("onCreated" in input) await input.onCreated?.(tx as unknown as Db, id);
  });
  addLogContext({ invoice_id: id });
  log.info({ invoice_id: id, merchant_id: merchant?.merchantId, orders: orderRows.length, amount_usdc_atomic: priceUsdc.toString() }, "invoice created");

  return {
    id,
    priceUsdc,
    priceCents,
    giftCardCents,
    paidByCard,
    expiresAt,
    items: orderRows.map((o) => ({
      orderId: o.id,
      productId: o.productId,
      productName: o.productName,
      packageValue: o.packageValue,
      priceUsdc: o.priceUsdc,
      recipient: o.recipient,
    })),
  };
}

/** Stocked codes that one wallet's unpaid invoices may hold at once: in all, and of one package. */
export const MAX_OPEN_RESERVATIONS = 10;
export const MAX_OPEN_RESERVATIONS_PER_PACKAGE = 5;
/** The same for all the wallets of one client address: a few wallets' worth, for an address that several buyers share. */
export const MAX_OPEN_RESERVATIONS_PER_ADDRESS = 30;
export const MAX_OPEN_RESERVATIONS_PER_ADDRESS_PACKAGE = 15;
/**
 * The same for all the addresses of one network (an IPv6 /48, an IPv4 /24): two addresses' worth, as a /48 is usually
 * one site (a home, an office) and its /64s cost its holder nothing.
 */
export const MAX_OPEN_RESERVATIONS_PER_NETWORK = 60;
export const MAX_OPEN_RESERVATIONS_PER_NETWORK_PACKAGE = 30;
/** The share of a package's unsold codes that one network's unpaid invoices may hold, so that no network empties the shelf. */
export const NETWORK_SHARE_OF_STOCK = 0.25;

/**
 * What one network may hold of a package with `unsold` codes left (free, or held by unpaid invoices): its share, but
 * never less than one client address may hold, so that a small stock still sells to one buyer or one shared address.
 */
export function networkShare(unsold: number): number {
  return Math.max(MAX_OPEN_RESERVATIONS_PER_ADDRESS_PACKAGE, Math.floor(unsold * NETWORK_SHARE_OF_STOCK));
}

type Reserved = { supplier: string; productId: string; packageValue: string };
/** Who would hold the cart's codes: its wallet, and its client address and network when it has one. */
type CartHolders = { payer: string; clientAddress: string | null; clientNetwork: string | null };

/**
 * Refuses a cart that would make the wallet, its client address or its network hold more stocked codes in unpaid
 * invoices than the limits allow (the network also more than its share of a package), so that nobody can hold a
 * product sold out with invoices they never pay. Counted under a lock per wallet, per address and per network (always
 * taken in that order), in the creating transaction, so that concurrent carts cannot pass together.
 */
async function checkReservationLimits(tx: Db, { payer, clientAddress, clientNetwork }: CartHolders, rows: Reserved[], now: Date): Promise<void> {
  const wanted = rows.filter((o) => o.supplier === "inventory");
  if (wanted.length === 0) return;
  await checkHolder(tx, `reservations:${payer}`, sql`i.payer = ${payer}`, wanted, now, {
    who: "one wallet",
    limit: MAX_OPEN_RESERVATIONS,
    packageLimit: MAX_OPEN_RESERVATIONS_PER_PACKAGE,
  });
  if (!clientAddress) return;
  await checkHolder(tx, `reservations-address:${clientAddress}`, sql`i.client_address = ${clientAddress}`, wanted, now, {
    who: "one client address",
    limit: MAX_OPEN_RESERVATIONS_PER_ADDRESS,
    packageLimit: MAX_OPEN_RESERVATIONS_PER_ADDRESS_PACKAGE,
  });
  if (!clientNetwork) return;
  const held = await checkHolder(tx, `reservations-network:${clientNetwork}`, sql`i.client_network = ${clientNetwork}`, wanted, now, {
    who: "one network (an IPv6 /48, an IPv4 /24)",
    limit: MAX_OPEN_RESERVATIONS_PER_NETWORK,
    packageLimit: MAX_OPEN_RESERVATIONS_PER_NETWORK_PACKAGE,
  });
  await checkNetworkShare(tx, held);
}

/** A package's key in the counts below. */
const packageKey = (productId: string, packageValue: string) => `${productId}\u0000${packageValue}`;

/** What a holder would hold of a package the cart wants: the codes its unpaid invoices hold and the cart's. */
type Holding = { productId: string; packageValue: string; n: number };

/**
 * One holder's check: the codes its unpaid invoices hold (`holder`, on invoices `i`) and the cart's, within its
 * limits. Returns what it would hold of each package the cart wants.
 */
async function checkHolder(
  tx: Db,
  lock: string,
  holder: SQL,
  wanted: Reserved[],
  now: Date,
  { who, limit, packageLimit }: { who: string; limit: number; packageLimit: number },
): Promise<Holding[]> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${lock}, 402))`);
  const held = await queryRows<{ product_id: string; package_value: string; n: number }>(
    tx,
    sql`SELECT o.product_id, o.package_value, count(*)::int AS n
        FROM ${inventoryCodes} ic JOIN ${orders} o ON o.id = ic.order_id JOIN ${invoices} i ON i.id = o.invoice_id
        WHERE ${holder} AND i.status = 'unpaid' AND i.expires_at > ${now} AND ic.sold_at IS NULL
        GROUP BY o.product_id, o.package_value`,
  );
  const perPackage = new Map(held.map((h) => [packageKey(h.product_id, h.package_value), h.n]));
  const holdings = new Map<string, Holding>();
  let total = held.reduce((sum, h) => sum + h.n, 0);
  for (const o of wanted) {
    const key = packageKey(o.productId, o.packageValue);
    const n = (perPackage.get(key) ?? 0) + 1;
    perPackage.set(key, n);
    holdings.set(key, { productId: o.productId, packageValue: o.packageValue, n });
    total++;
    if (n > packageLimit || total > limit) {
      throw new DomainError(
        "reservation_limit",
        `Unpaid invoices of ${who} hold at most ${limit} stocked codes, ${packageLimit} of one package: pay or let expire the invoices you have (${o.productId} ${o.packageValue}).`,
        { details: { limit, package_limit: packageLimit } },
      );
    }
  }
  return [...holdings.values()];
}

/**
 * Refuses a cart that would make one network hold more than its share of a package's unsold codes. Called under the
 * network's lock: its own holdings cannot change meanwhile, and other holders' reservations leave the unsold count as
 * it is (only a sale or an import moves it, which makes the share a little stale for one cart at most).
 */
async function checkNetworkShare(tx: Db, holdings: Holding[]): Promise<void> {
  const unsold = await queryRows<{ product_id: string; package_value: string; n: number }>(
    tx,
    sql`SELECT product_id, package_value, count(*)::int AS n FROM ${inventoryCodes}
        WHERE (product_id, package_value) IN (${sql.join(
          holdings.map((h) => sql`(${h.productId}, ${h.packageValue})`),
          sql`, `,
        )}) AND sold_at IS NULL
        GROUP BY product_id, package_value`,
  );
  const onShelf = new Map(unsold.map((u) => [packageKey(u.product_id, u.package_value), u.n]));
  for (const h of holdings) {
    // A package without codes is refused as sold out when its code is reserved, not here.
    const left = onShelf.get(packageKey(h.productId, h.packageValue)) ?? 0;
    const share = networkShare(left);
    if (h.n > share) {
      throw new DomainError(
        "reservation_limit",
        `Unpaid invoices of one network (an IPv6 /48, an IPv4 /24) hold at most ${NETWORK_SHARE_OF_STOCK * 100}% of a package's unsold codes (at least ${MAX_OPEN_RESERVATIONS_PER_ADDRESS_PACKAGE}): ${share} of the ${left} left of ${h.productId} ${h.packageValue}. Pay or let expire the invoices you have.`,
        { details: { limit: MAX_OPEN_RESERVATIONS_PER_NETWORK, package_limit: share } },
      );
    }
  }
}
