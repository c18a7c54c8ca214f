import Link from "next/link";
import { KIND_LABELS, PRODUCT_KINDS, type ProductKind } from "@/lib/catalog";

export function parseKind(value: string | undefined): ProductKind | undefined {
  return PRODUCT_KINDS.find((k) => k === value);
}

/** Tabs as links: each kind is its own URL, so the server renders it and the back button works. */
export function KindTabs({ active, hrefFor, allHref }: { active?: ProductKind; hrefFor: (k: ProductKind) => string; allHref?: string }) {
  const tab = (href: string, label: string, current: boolean) => (
    <li key={href}>
      <Link
        href={href}
        aria-current={current ? "page" : undefined}
        className={`inline-flex h-10 items-center rounded-full px-4 text-sm font-semibold ${
          current ? "bg-slate-900 text-white" : "border border-slate-300 bg-white text-slate-800 hover:border-slate-500"
        }`}
      >
        {label}
      </Link>
    </li>
  );
  return (
    <nav aria-label="Product kinds">
      <ul className="flex flex-wrap gap-2">
        {allHref !== undefined && tab(allHref, "All", active === undefined)}
        {PRODUCT_KINDS.map((k) => tab(hrefFor(k), KIND_LABELS[k].many, active === k))}
      </ul>
    </nav>
  );
}
