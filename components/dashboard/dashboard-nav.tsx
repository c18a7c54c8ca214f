"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { DASHBOARD_NAV, isCurrent } from "./nav-items";

/** The section tabs. On a narrow screen they wrap onto a second row: every tab stays in sight, none scrolls away. */
export function DashboardNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Dashboard" className="-mb-px">
      <ul className="flex flex-wrap gap-x-1 px-4 sm:px-0">
        {DASHBOARD_NAV.map((item) => {
          const current = isCurrent(item, pathname);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={current ? "page" : undefined}
                className="block border-b-2 border-transparent px-2 py-3 text-sm font-semibold whitespace-nowrap text-slate-700 hover:border-slate-300 hover:text-slate-900 aria-[current=page]:border-brand-600 aria-[current=page]:text-brand-700 sm:px-3"
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
