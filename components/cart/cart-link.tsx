"use client";

import Link from "next/link";
import { itemCount, useCart } from "./cart-store";

export function CartLink() {
  const count = itemCount(useCart());
  return (
    <Link
      href="/cart"
      className="relative inline-flex h-10 items-center gap-2 rounded-xl border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-800 hover:border-brand-500"
    >
      <svg aria-hidden viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
        <path d="M3 4h2l2.4 11.2a2 2 0 0 0 2 1.6h7.7a2 2 0 0 0 2-1.5L21 8H6" />
        <circle cx="10" cy="20" r="1.5" />
        <circle cx="17" cy="20" r="1.5" />
      </svg>
      Cart
      <span className="min-w-6 rounded-full bg-brand-600 px-1.5 text-center text-xs leading-6 text-white" aria-label={`${count} items`}>
        {count}
      </span>
    </Link>
  );
}
