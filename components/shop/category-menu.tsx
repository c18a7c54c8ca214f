"use client";

import Link from "next/link";
import { useEffect, useRef } from "react";
import { CATEGORIES } from "./categories";

/**
 * The categories on a phone, where the header has no room for them in a row: a disclosure (a native `<details>`, by
 * keyboard and screen reader alike) that closes when one is chosen (the header stays on the page after a client-side
 * navigation), on a tap elsewhere, and on Escape (back to its button), as a menu does.
 */
export function CategoryMenu() {
  const menu = useRef<HTMLDetailsElement>(null);
  const close = () => menu.current?.removeAttribute("open");
  useEffect(() => {
    const elsewhere = (e: PointerEvent) => {
      if (menu.current?.open && !menu.current.contains(e.target as Node)) close();
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || !menu.current?.open) return;
      close();
      menu.current.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", elsewhere);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("pointerdown", elsewhere);
      document.removeEventListener("keydown", escape);
    };
  }, []);
  return (
    <details ref={menu} className="relative md:hidden">
      {/* An icon before the search field on a phone's narrow header; its name for screen readers. */}
      <summary
        aria-label="Browse categories"
        title="Browse categories"
        className="flex h-10 w-10 shrink-0 cursor-pointer list-none items-center justify-center rounded-lg text-slate-700 ring-1 ring-slate-300 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 [&::-webkit-details-marker]:hidden"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M3 5h14M3 10h14M3 15h14" />
        </svg>
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
