/** Labelled facts of one thing (an order, an invoice): a definition list, two columns from tablet width. */
export function DetailList({ items }: { items: { term: string; value: React.ReactNode }[] }) {
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_minmax(0,1fr)]">
      {items.map((item) => (
        <div key={item.term} className="contents">
          <dt className="text-sm font-semibold text-slate-700">{item.term}</dt>
          <dd className="min-w-0 [overflow-wrap:anywhere] text-slate-900 max-sm:-mt-2">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
