import { ORDER_STATUSES, type OrderListQuery } from "@/lib/dashboard/order-list";
import { FilterActions, FilterField, FilterForm, FilterSelect } from "./filter-form";
import { inputClass } from "./form-field";

const SORT_CHOICES = [
  { value: "created:desc", label: "Newest first" },
  { value: "created:asc", label: "Oldest first" },
  { value: "price:desc", label: "Price, highest first" },
  { value: "price:asc", label: "Price, lowest first" },
  { value: "product:asc", label: "Product, A to Z" },
  { value: "product:desc", label: "Product, Z to A" },
  { value: "status:asc", label: "Status" },
] as const;

/**
 * The orders table's filters (a plain GET form: see FilterForm). Sorting is here too, for phones, where the table has
 * no column headers to click. Render it with a `key` that changes with the query.
 */
export function OrderFilters({ query, exportHref }: { query: OrderListQuery; exportHref: string }) {
  return (
    // Two columns from the phone up (the search and the actions across both): stacked one per row, the fields filled a
    // phone's first screen before the first order.
    <FilterForm action="/dashboard/orders" label="Orders" layout="grid-cols-2 lg:grid-cols-6">
      <FilterField id="orders-q" label="Search" className="col-span-2">
        <input
          id="orders-q"
          name="q"
          type="search"
          defaultValue={query.q}
          maxLength={100}
          placeholder="Order id, invoice id or product"
          className={inputClass}
        />
      </FilterField>
      <FilterField id="orders-status" label="Status">
        <FilterSelect id="orders-status" name="status" value={query.status ?? ""} any="Any status" choices={ORDER_STATUSES} />
      </FilterField>
      <FilterField id="orders-from" label="From" note="(UTC)">
        <input id="orders-from" name="from" type="date" defaultValue={query.from} className={inputClass} />
      </FilterField>
      <FilterField id="orders-to" label="To" note="(UTC)">
        <input id="orders-to" name="to" type="date" defaultValue={query.to} className={inputClass} />
      </FilterField>
      <FilterField id="orders-sort" label="Sort">
        <FilterSelect id="orders-sort" name="order" value={`${query.sort}:${query.dir}`} choices={SORT_CHOICES} />
      </FilterField>
      <FilterActions clearHref="/dashboard/orders" className="col-span-2 lg:col-span-6">
        <a
          href={exportHref}
          download
          className="ml-auto inline-flex h-11 items-center rounded-xl border border-slate-300 bg-white px-4 font-semibold text-slate-900 shadow-sm hover:bg-slate-50"
        >
          Export CSV
        </a>
      </FilterActions>
    </FilterForm>
  );
}
