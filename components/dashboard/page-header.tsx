/** A dashboard page's title, a line about what it is for, and room for its main action. */
export function PageHeader({ title, description, children }: { title: string; description?: React.ReactNode; children?: React.ReactNode }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-3">
      <div className="flex min-w-0 flex-col gap-1">
        <h1 className="text-2xl font-bold [overflow-wrap:anywhere] text-slate-900">{title}</h1>
        {description && <p className="max-w-prose [overflow-wrap:anywhere] text-slate-700">{description}</p>}
      </div>
      {children}
    </div>
  );
}
