import Link from "next/link";
import { useId } from "react";

/**
 * One column: its header, how a row fills its cell, whether the cell names the row (the first column, usually),
 * and whether a phone shows the header beside the value (off for a column of buttons).
 */
export type Column<T> = {
  header: string;
  cell: (row: T) => React.ReactNode;
  rowHeader?: boolean;
  phoneLabel?: boolean;
  className?: string;
  /** A sortable column: the link that sorts by it, and whether the table is sorted by it now (and which way). */
  sort?: ColumnSort;
};

export type ColumnSort = { href: string; direction: "ascending" | "descending" | null };

/**
 * A plain, keyboard-usable table: a caption (read by screen readers, shown or not), column headers, a row header per
 * row, and nothing but links and buttons to tab through. On a phone each row becomes a card (the row header as its
 * title, each value under its column's name) so that nothing hides off to the side; the explicit roles keep it a
 * table for screen readers, which drop table semantics when the display changes. Should a cell still be too wide,
 * the frame scrolls sideways by itself (focusable, so the arrow keys scroll it) and the page keeps its width; it is
 * `relative` so that visually hidden, absolutely positioned text in the cells stays inside it.
 */
export function DataTable<T>({
  caption,
  showCaption = false,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  showCaption?: boolean;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
}) {
  const captionId = useId();
  return (
    <div role="region" aria-labelledby={captionId} tabIndex={0} className="relative overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <table role="table" className="w-full border-collapse text-left text-sm max-sm:block">
        <caption id={captionId} className={showCaption ? "px-4 pt-4 text-left font-semibold text-slate-900 max-sm:block" : "sr-only"}>
          {caption}
        </caption>
        <thead role="rowgroup" className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-700 uppercase max-sm:sr-only">
          <tr role="row">
            {columns.map((c) => (
              <th
                key={c.header}
                role="columnheader"
                scope="col"
                aria-sort={c.sort ? (c.sort.direction ?? "none") : undefined}
                className={`px-4 py-3 font-semibold whitespace-nowrap ${c.className ?? ""}`}
              >
                {c.sort ? <SortLink header={c.header} sort={c.sort} /> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className="divide-y divide-slate-200 max-sm:block">
          {rows.map((row) => (
            <tr key={rowKey(row)} role="row" className="align-middle max-sm:flex max-sm:flex-col max-sm:gap-1.5 max-sm:px-4 max-sm:py-3">
              {columns.map((c) =>
                c.rowHeader ? (
                  <th
                    key={c.header}
                    role="rowheader"
                    scope="row"
                    className={`px-4 py-3 font-semibold text-slate-900 max-sm:p-0 max-sm:text-base ${c.className ?? ""}`}
                  >
                    {c.cell(row)}
                  </th>
                ) : (
                  <td
                    key={c.header}
                    role="cell"
                    className={`px-4 py-3 text-slate-800 max-sm:flex max-sm:items-baseline max-sm:gap-3 max-sm:p-0 max-sm:text-left ${c.className ?? ""}`}
                  >
                    {c.phoneLabel !== false && (
                      // The column's name, for sighted phone users; screen readers get it from the table itself.
                      <span aria-hidden className="w-24 shrink-0 text-xs font-semibold tracking-wide whitespace-normal text-slate-600 uppercase sm:hidden">
                        {c.header}
                      </span>
                    )}
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A column header that sorts the table: its arrow shows the current order; screen readers get it from aria-sort. */
function SortLink({ header, sort }: { header: string; sort: ColumnSort }) {
  const arrow = sort.direction === "ascending" ? "↑" : sort.direction === "descending" ? "↓" : "↕";
  return (
    <Link href={sort.href} scroll={false} className="inline-flex items-center gap-1 rounded uppercase underline-offset-4 hover:underline">
      {header}
      <span aria-hidden className={sort.direction ? "text-slate-900" : "text-slate-400"}>
        {arrow}
      </span>
    </Link>
  );
}
