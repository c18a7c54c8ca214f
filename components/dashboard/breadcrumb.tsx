import Link from "next/link";

/** "Orders / ord_…": the section, and the item this page shows (an id, in mono, wrapping anywhere). */
export function Breadcrumb({ section, href, current }: { section: string; href: string; current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <Link href={href} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
        {section}
      </Link>
      <span aria-hidden className="px-2 text-slate-500">
        /
      </span>
      <span aria-current="page" className="font-mono [overflow-wrap:anywhere] text-slate-700">
        {current}
      </span>
    </nav>
  );
}
