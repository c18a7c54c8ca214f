"use client";

import Link from "next/link";
import { useRef } from "react";
import { CATEGORIES } from "./categories";

/**
 * The categories on a phone, where the header has no room for them in a row: a disclosure (a native `<details>`, by
 * keyboard and screen reader alike) that closes when one is chosen, since the header stays on the page after a
 * client-side navigation.
 */
export function CategoryMenu() {
  const menu = useRef<HTMLDetailsElement>(null);
  const close = () => menu.current?.removeAttribute("open");
  return (
    <details ref={menu} className="relative md:hidden">
      <summary className="flex cursor-pointer list-none items-center gap-1 rounded-lg px-2 py-1 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 [&::-webkit-details-marker]:hidden">
        Browse
        <span aria-hidden="true">▾</span>
      </summary>
      <nav aria-label="Categories" className="absolute top-full left-0 z-30 mt-2 flex w-44 flex-col rounded-xl bg-white p-1 shadow-lg ring-1 ring-slate-200">
        {CATEGORIES.map((c) => (
          <Link
            key={c.href}
            href={c.href}
            onClick={close}
            className="rounded-lg px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 hover:text-brand-700"
          >
            {c.label}
          </Link>
        ))}
      </nav>
    </details>
  );
}
