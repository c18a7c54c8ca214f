"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import { DASHBOARD_NAV, isCurrent } from "./nav-items";

/** The section tabs. On a narrow screen they scroll sideways inside their own strip; the page itself never does. */
export function DashboardNav() {
  const pathname = usePathname();
  const strip = useRef<HTMLElement>(null);
  // On a narrow screen, bring the current tab into the strip's view (the page itself does not move).
  useEffect(() => {
    const nav = strip.current;
    const current = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !current || nav.scrollWidth <= nav.clientWidth) return;
    nav.scrollLeft = Math.max(0, current.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2);
  }, [pathname]);
  return (
    <nav ref={strip} aria-label="Dashboard" className="relative -mb-px [scrollbar-width:thin] overflow-x-auto">
      <ul className="flex min-w-max gap-1 px-4 sm:px-0">
        {DASHBOARD_NAV.map((item) => {
          const current = isCurrent(item, pathname);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={current ? "page" : undefined}
                className="block border-b-2 border-transparent px-3 py-3 text-sm font-semibold whitespace-nowrap text-slate-700 hover:border-slate-300 hover:text-slate-900 aria-[current=page]:border-brand-600 aria-[current=page]:text-brand-700"
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
