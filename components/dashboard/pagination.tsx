import Link from "next/link";

const linkClass = "inline-flex h-10 items-center rounded-xl border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-900 shadow-sm hover:bg-slate-50";
const disabledClass = "inline-flex h-10 items-center rounded-xl border border-slate-200 px-4 text-sm font-semibold text-slate-400";

/** Previous and next page links, with where the reader is; a link that leads nowhere is drawn, not focusable. */
export function Pagination({ label, summary, previous, next }: { label: string; summary: string; previous: string | null; next: string | null }) {
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-700" aria-live="polite">
        {summary}
      </p>
      <div className="flex gap-2">
        <PageLink href={previous} rel="prev" label="Previous" />
        <PageLink href={next} rel="next" label="Next" />
      </div>
    </nav>
  );
}

function PageLink({ href, rel, label }: { href: string | null; rel: "prev" | "next"; label: string }) {
  return href ? (
    <Link href={href} rel={rel} className={linkClass}>
      {label}
    </Link>
  ) : (
    <span aria-disabled="true" className={disabledClass}>
      {label}
    </span>
  );
}
