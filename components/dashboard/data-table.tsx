import { useId } from "react";

/** One column: its header, how a row fills its cell, and whether the cell names the row (the first column, usually). */
export type Column<T> = { header: string; cell: (row: T) => React.ReactNode; rowHeader?: boolean; className?: string };

/**
 * A plain, keyboard-usable table: a caption (read by screen readers, shown or not), column headers, a row header
 * per row. On a narrow screen it scrolls sideways inside its own frame, which is focusable so that the arrow keys
 * scroll it too; the page around it keeps its width. The frame is `relative` so that visually hidden (absolutely
 * positioned) text in the cells stays inside it instead of widening the page.
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
      <table className="w-full border-collapse text-left text-sm">
        <caption id={captionId} className={showCaption ? "px-4 pt-4 text-left font-semibold text-slate-900" : "sr-only"}>
          {caption}
        </caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-700">
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={`whitespace-nowrap px-4 py-3 font-semibold ${c.className ?? ""}`}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((row) => (
            <tr key={rowKey(row)} className="align-middle">
              {columns.map((c) =>
                c.rowHeader ? (
                  <th key={c.header} scope="row" className={`px-4 py-3 font-semibold text-slate-900 ${c.className ?? ""}`}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.header} className={`px-4 py-3 text-slate-800 ${c.className ?? ""}`}>
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
