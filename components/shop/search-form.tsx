type Props = {
  defaultValue?: string;
  size?: "large" | "compact";
  /** Filters to keep when searching again (kind, country). */
  hidden?: Record<string, string | undefined>;
  id?: string;
};

/** A plain GET form to /search: works before any JavaScript loads. */
export function SearchForm({ defaultValue, size = "compact", hidden = {}, id = "search" }: Props) {
  const large = size === "large";
  return (
    <form action="/search" method="get" role="search" className={`flex w-full gap-2 ${large ? "flex-col sm:flex-row" : ""}`}>
      <label htmlFor={id} className="sr-only">
        Search gift cards, eSIMs and top-ups
      </label>
      <input
        id={id}
        name="q"
        type="search"
        defaultValue={defaultValue}
        placeholder={large ? "Amazon, Steam, Japan eSIM…" : "Search brands, countries…"}
        autoComplete="off"
        enterKeyHint="search"
        maxLength={100}
        className={`min-w-0 rounded-xl border border-slate-300 bg-white px-4 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none ${large ? "h-14 w-full text-lg sm:w-auto sm:flex-1" : "h-10 flex-1 text-sm"}`}
      />
      {Object.entries(hidden).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      <button
        type="submit"
        className={`shrink-0 rounded-xl font-semibold text-white shadow-sm ${large ? "h-14 bg-slate-900 px-6 text-lg hover:bg-slate-800" : "h-10 bg-brand-600 px-4 text-sm hover:bg-brand-700"}`}
      >
        Search
      </button>
    </form>
  );
}
