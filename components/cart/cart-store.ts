"use client";

import { useSyncExternalStore } from "react";
import { formatPackage } from "@/lib/catalog/pricing";

/** At most this many items in one cart: the invoice API takes 1 to 15 items. */
export const MAX_CART_ITEMS = 15;
const KEY = "storefront.cart.v1";

export type CartLine = {
  productId: string;
  packageValue: string;
  /** The product's currency, which names the package ("£10"); absent in carts kept before it was stored. */
  currency?: string;
  quantity: number;
  /** Phone number or e-mail for products that need a recipient. */
  recipient?: string;
  name: string;
  image: string;
  /** Price of one item in USDC atomic units, as a decimal string (bigint does not survive JSON). */
  unitPriceUsdc: string;
};

type Listener = () => void;
const listeners = new Set<Listener>();
let cache: { raw: string | null; lines: CartLine[] } = { raw: null, lines: [] };

function read(): CartLine[] {
  const raw = typeof window === "undefined" ? null : window.localStorage.getItem(KEY);
  if (raw !== cache.raw) {
    let lines: CartLine[] = [];
    try {
      const parsed: unknown = raw ? JSON.parse(raw) : [];
      if (Array.isArray(parsed)) lines = parsed as CartLine[];
    } catch {
      lines = [];
    }
    cache = { raw, lines };
  }
  return cache.lines;
}

function write(lines: CartLine[]) {
  window.localStorage.setItem(KEY, JSON.stringify(lines));
  listeners.forEach((l) => l());
}

function subscribe(listener: Listener) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => e.key === KEY && listener();
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

const EMPTY: CartLine[] = [];

export function useCart(): CartLine[] {
  return useSyncExternalStore(subscribe, read, () => EMPTY);
}

/** The package of a line as people read it: "£10", "1GB, 7 Days". */
export const lineLabel = (l: CartLine) => (l.currency ? formatPackage(l.packageValue, l.currency) : l.packageValue);

export const itemCount = (lines: CartLine[]) => lines.reduce((n, l) => n + l.quantity, 0);

const sameLine = (a: CartLine, b: Pick<CartLine, "productId" | "packageValue" | "recipient">) =>
  a.productId === b.productId && a.packageValue === b.packageValue && (a.recipient ?? "") === (b.recipient ?? "");

export type AddResult = { ok: true } | { ok: false; reason: string };

/** Adds items, merging with an identical line; refuses to pass MAX_CART_ITEMS. */
export function addToCart(line: CartLine): AddResult {
  const lines = read();
  if (itemCount(lines) + line.quantity > MAX_CART_ITEMS) {
    return { ok: false, reason: `A cart holds at most ${MAX_CART_ITEMS} items.` };
  }
  const existing = lines.find((l) => sameLine(l, line));
  write(
    existing ? lines.map((l) => (l === existing ? { ...l, quantity: l.quantity + line.quantity, unitPriceUsdc: line.unitPriceUsdc } : l)) : [...lines, line],
  );
  return { ok: true };
}

export function removeFromCart(index: number) {
  write(read().filter((_, i) => i !== index));
}

export function setQuantity(index: number, quantity: number): AddResult {
  const lines = read();
  const others = itemCount(lines) - (lines[index]?.quantity ?? 0);
  if (quantity < 1) return { ok: false, reason: "Quantity must be at least 1." };
  if (others + quantity > MAX_CART_ITEMS) return { ok: false, reason: `A cart holds at most ${MAX_CART_ITEMS} items.` };
  write(lines.map((l, i) => (i === index ? { ...l, quantity } : l)));
  return { ok: true };
}

const INVOICE_KEY = "storefront.cart.invoice.v1";

/** Remembers the invoice made from the cart as it is now: paying that one empties the cart. */
export function rememberCartInvoice(invoiceId: string) {
  window.localStorage.setItem(INVOICE_KEY, invoiceId);
}

/**
 * Empties the cart once the invoice made from it is paid; paying another invoice (an older one, from the account
 * page) leaves the cart alone. Editing the cart later does not matter: that invoice's items are bought.
 */
export function clearCartPaidBy(invoiceId: string) {
  if (window.localStorage.getItem(INVOICE_KEY) !== invoiceId) return;
  window.localStorage.removeItem(INVOICE_KEY);
  write([]);
}
