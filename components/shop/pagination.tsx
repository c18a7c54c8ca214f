import Link from "next/link";

export function Pagination({ page, pageSize, total, hrefFor }: { page: number; pageSize: number; total: number; hrefFor: (page: number) => string }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  const link = "inline-flex h-10 items-center rounded-xl border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:border-brand-500";
  return (
    <nav aria-label="Pages" className="flex items-center justify-center gap-3">
      {page > 1 ? (
        <Link href={hrefFor(page - 1)} className={link} rel="prev">
          ← Previous
        </Link>
      ) : (
        <span className={`${link} opacity-50`} aria-disabled>
          ← Previous
        </span>
      )}
      <span className="text-sm text-slate-700">
        Page {Math.min(page, pages)} of {pages}
      </span>
      {page < pages ? (
        <Link href={hrefFor(page + 1)} className={link} rel="next">
          Next →
        </Link>
      ) : (
        <span className={`${link} opacity-50`} aria-disabled>
          Next →
        </span>
      )}
    </nav>
  );
}
