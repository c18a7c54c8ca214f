import type { ReactNode } from "react";

/** A link inside a dashboard page's text. */
export const textLinkClass = "font-semibold text-brand-700 underline-offset-4 hover:underline";

/** The panel a dashboard page is made of. */
export const cardClass = "flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200";

/** A titled panel of a dashboard page: a section named by its heading (`id` is the heading's). */
export function Card({ id, title, children, className }: { id: string; title: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section aria-labelledby={id} className={className ? `${cardClass} ${className}` : cardClass}>
      <h2 id={id} className="text-lg font-bold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
