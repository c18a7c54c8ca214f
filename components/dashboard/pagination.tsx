import Link from "next/link";

const linkClass =
  "inline-flex h-10 items-center rounded-xl border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-900 shadow-sm hover:bg-slate-50";
const disabledClass = "inline-flex h-10 items-center rounded-xl border border-slate-200 px-4 text-sm font-semibold text-slate-400";

/**
 * Previous and next page links, with where the reader is; a link that leads nowhere is drawn, not focusable. A list
 * paged by cursor names its links for what they lead to (say "Newest" and "Older").
 */
export function Pagination({
  label,
  summary,
  previous,
  next,
  previousLabel = "Previous",
  nextLabel = "Next",
}: {
  label: string;
  summary: string;
  previous: string | null;
  next: string | null;
  previousLabel?: string;
  nextLabel?: string;
}) {
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-700" aria-live="polite">
        {summary}
      </p>
      <div className="flex gap-2">
        <PageLink href={previous} rel="prev" label={previousLabel} />
        <PageLink href={next} rel="next" label={nextLabel} />
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
