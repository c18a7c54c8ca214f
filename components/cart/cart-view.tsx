"use client";

import Image from "next/image";
import Link from "next/link";
import { formatUsd, formatUsdc } from "@/lib/catalog/pricing";
import { itemCount, lineLabel, MAX_CART_ITEMS, removeFromCart, setQuantity, useCart } from "./cart-store";

export function CartView() {
  const lines = useCart();
  if (lines.length === 0) {
    return (
      <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
        <p className="text-slate-700">Your cart is empty.</p>
        <Link href="/" className="mt-3 inline-block font-semibold text-brand-700 hover:underline">
          Find a gift card, eSIM or top-up
        </Link>
      </div>
    );
  }
  const total = lines.reduce((sum, l) => sum + BigInt(l.unitPriceUsdc) * BigInt(l.quantity), 0n);
  const count = itemCount(lines);
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <ul aria-label="Cart items" className="flex flex-col gap-3">
        {lines.map((l, i) => (
          <li key={`${l.productId}|${l.packageValue}|${l.recipient ?? ""}`} className="flex gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-200">
            <Image src={l.image} alt="" width={96} height={60} unoptimized className="h-15 w-24 shrink-0 rounded-lg bg-slate-100" />
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <Link href={`/products/${l.productId}`} className="font-semibold text-slate-900 hover:text-brand-700">
                {l.name}
              </Link>
              <p className="text-sm text-slate-700">
                {lineLabel(l)}
                {l.recipient ? ` · for ${l.recipient}` : ""}
              </p>
              <div className="flex flex-wrap items-center gap-3">
                <label className="flex items-center gap-2 text-sm text-slate-700">
                  Qty
                  <select
                    value={l.quantity}
                    onChange={(e) => setQuantity(i, Number(e.target.value))}
                    className="h-9 rounded-lg border border-slate-300 bg-white px-2"
                  >
                    {Array.from({ length: Math.min(MAX_CART_ITEMS - (count - l.quantity), MAX_CART_ITEMS) }, (_, n) => n + 1).map((n) => (
                      <option key={n} value={n}>
                        {n}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="button" onClick={() => removeFromCart(i)} className="text-sm font-semibold text-red-700 hover:underline">
                  Remove<span className="sr-only"> {l.name}</span>
                </button>
              </div>
            </div>
            <p className="shrink-0 text-right font-semibold text-slate-900">{formatUsd(BigInt(l.unitPriceUsdc) * BigInt(l.quantity))}</p>
          </li>
        ))}
      </ul>
      <aside className="flex h-fit flex-col gap-2 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <p className="flex justify-between text-slate-700">
          <span>
            {count} {count === 1 ? "item" : "items"} (at most {MAX_CART_ITEMS})
          </span>
        </p>
        <p className="flex justify-between text-lg font-bold text-slate-900">
          <span>Total</span>
          <span>{formatUsd(total)}</span>
        </p>
        <p className="text-right text-sm text-slate-700">{formatUsdc(total)}</p>
        <p className="text-sm text-slate-600">Prices are estimates until checkout locks them on an invoice.</p>
      </aside>
    </div>
  );
}
