/**
 * What a section shows while its page is read on the server: the header and nav stay, the page's place is held. A
 * navigation answers at once, and the page streams in when its queries are done.
 */
export default function SectionLoading() {
  return (
    <div aria-busy="true" className="flex flex-col gap-6">
      <span className="sr-only">Loading…</span>
      <div className="h-8 w-48 animate-pulse rounded-lg bg-slate-200" />
      <div className="h-24 animate-pulse rounded-2xl bg-white shadow-sm ring-1 ring-slate-200" />
      <div className="h-64 animate-pulse rounded-2xl bg-white shadow-sm ring-1 ring-slate-200" />
    </div>
  );
}
