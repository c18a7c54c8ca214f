import Link from "next/link";
import { ORDER_STATUSES, type OrderListQuery } from "@/lib/merchant-invoices/order-list";
import { inputClass, primaryButtonClass } from "./form-field";

const SORT_CHOICES = [
  { value: "created:desc", label: "Newest first" },
  { value: "created:asc", label: "Oldest first" },
  { value: "price:desc", label: "Price, highest first" },
  { value: "price:asc", label: "Price, lowest first" },
  { value: "product:asc", label: "Product, A to Z" },
  { value: "product:desc", label: "Product, Z to A" },
  { value: "status:asc", label: "Status" },
] as const;

const label = "text-sm font-semibold text-slate-900";

/**
 * The orders table's filters: a plain GET form, so it works before any script loads and every view has a URL to
 * bookmark or share. Sorting is here too, for phones, where the table has no column headers to click. Render it with
 * a `key` that changes with the query: its fields are uncontrolled, and after a client-side navigation (Clear filters,
 * a column header) they would keep what was typed before instead of showing the new query.
 */
export function OrderFilters({ query, exportHref }: { query: OrderListQuery; exportHref: string }) {
  const sort = `${query.sort}:${query.dir}`;
  return (
    <form
      method="get"
      action="/dashboard/orders"
      role="search"
      aria-label="Orders"
      className="grid gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-6"
    >
      <div className="flex flex-col gap-1.5 sm:col-span-2">
        <label htmlFor="orders-q" className={label}>
          Search
        </label>
        <input
          id="orders-q"
          name="q"
          type="search"
          defaultValue={query.q}
          maxLength={100}
          placeholder="Order id, invoice id or product"
          className={inputClass}
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="orders-status" className={label}>
          Status
        </label>
        <select id="orders-status" name="status" defaultValue={query.status ?? ""} className={inputClass}>
          <option value="">Any status</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="orders-from" className={label}>
          From <span className="font-normal text-slate-600">(UTC)</span>
        </label>
        <input id="orders-from" name="from" type="date" defaultValue={query.from} className={inputClass} />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="orders-to" className={label}>
          To <span className="font-normal text-slate-600">(UTC)</span>
        </label>
        <input id="orders-to" name="to" type="date" defaultValue={query.to} className={inputClass} />
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="orders-sort" className={label}>
          Sort
        </label>
        <select id="orders-sort" name="order" defaultValue={sort} className={inputClass}>
          {SORT_CHOICES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2 lg:col-span-6">
        <button type="submit" className={primaryButtonClass}>
          Apply
        </button>
        <Link href="/dashboard/orders" className="text-sm font-semibold text-brand-700 underline-offset-4 hover:underline">
          Clear filters
        </Link>
        <a
          href={exportHref}
          download
          className="ml-auto inline-flex h-11 items-center rounded-xl border border-slate-300 bg-white px-4 font-semibold text-slate-900 shadow-sm hover:bg-slate-50"
        >
          Export CSV
        </a>
      </div>
    </form>
  );
}
