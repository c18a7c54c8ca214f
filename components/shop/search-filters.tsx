import { AutoSubmitSelect } from "@/components/ui/auto-submit-select";
import { CountryOptions } from "./country-options";
import { KIND_LABELS, PRODUCT_KINDS, type Country, type ProductKind } from "@/lib/catalog";

type Props = { q: string; kind?: ProductKind; country?: string; countries: Country[] };

const selectClass = "h-10 rounded-xl border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm";

/** Filters as a GET form: each change reloads the results (at once with JS, by the Apply button without). */
export function SearchFilters({ q, kind, country, countries }: Props) {
  return (
    <form action="/search" method="get" className="flex flex-wrap items-end gap-3 rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-200">
      <div className="flex min-w-0 flex-1 basis-56 flex-col gap-1">
        <label htmlFor="filter-q" className="text-xs font-semibold text-slate-700">
          Search
        </label>
        <input
          id="filter-q"
          name="q"
          type="search"
          defaultValue={q}
          maxLength={100}
          className="h-10 rounded-xl border border-slate-300 bg-white px-3 text-sm text-slate-900"
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="filter-kind" className="text-xs font-semibold text-slate-700">
          Kind
        </label>
        <AutoSubmitSelect id="filter-kind" name="kind" defaultValue={kind ?? ""} className={selectClass}>
          <option value="">All kinds</option>
          {PRODUCT_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k].many}
            </option>
          ))}
        </AutoSubmitSelect>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="filter-country" className="text-xs font-semibold text-slate-700">
          Country
        </label>
        <AutoSubmitSelect id="filter-country" name="country" defaultValue={country ?? ""} className={selectClass}>
          <CountryOptions countries={countries} />
        </AutoSubmitSelect>
      </div>
      <button type="submit" className="h-10 rounded-xl bg-slate-900 px-4 text-sm font-semibold text-white hover:bg-slate-700">
        Apply
      </button>
    </form>
  );
}
