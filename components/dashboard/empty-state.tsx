/** What a section shows before there is anything in it: what will appear, and how to get there. */
export function EmptyState({ title, children, headingLevel = 2 }: { title: string; children: React.ReactNode; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className="flex flex-col gap-3 rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-slate-700 sm:p-6">
      <Heading className="text-lg font-bold text-slate-900">{title}</Heading>
      {children}
    </section>
  );
}
