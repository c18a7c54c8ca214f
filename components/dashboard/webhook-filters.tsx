import Link from "next/link";
import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type WebhookLogQuery } from "@/lib/dashboard/webhooks";
import { inputClass, primaryButtonClass } from "./form-field";

const label = "text-sm font-semibold text-slate-900";

/**
 * The delivery log's filters: a plain GET form (every view has a URL), like the orders table's. Applying it starts
 * again from the newest message. Render it with a `key` that changes with the query (its fields are uncontrolled).
 */
export function WebhookFilters({ query, urls }: { query: WebhookLogQuery; urls: string[] }) {
  return (
    <form
      method="get"
      action="/dashboard/webhooks"
      role="search"
      aria-label="Delivery log"
      className="grid gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-6"
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor="webhooks-status" className={label}>
          Status
        </label>
        <select id="webhooks-status" name="status" defaultValue={query.status ?? ""} className={inputClass}>
          <option value="">Any status</option>
          {DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor="webhooks-event" className={label}>
          Event type
        </label>
        <select id="webhooks-event" name="event" defaultValue={query.event ?? ""} className={inputClass}>
          <option value="">Any event</option>
          {WEBHOOK_EVENT_TYPES.map((e) => (
            <option key={e} value={e}>
              {e}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1.5 sm:col-span-2 lg:col-span-2">
        <label htmlFor="webhooks-url" className={label}>
          Target URL <span className="font-normal text-slate-600">(exact)</span>
        </label>
        <input
          id="webhooks-url"
          name="url"
          type="text"
          inputMode="url"
          list="webhooks-url-choices"
          spellCheck={false}
          defaultValue={query.url}
          maxLength={2048}
          placeholder="https://example.com/webhooks"
          className={`${inputClass} font-mono text-sm`}
        />
        <datalist id="webhooks-url-choices">
          {urls.map((u) => (
            <option key={u} value={u} />
          ))}
        </datalist>
      </div>
      <div className="flex flex-col gap-1.5 sm:col-span-2 lg:col-span-2">
        <label htmlFor="webhooks-invoice" className={label}>
          Invoice id
        </label>
        <input
          id="webhooks-invoice"
          name="invoice"
          type="text"
          spellCheck={false}
          defaultValue={query.invoice}
          maxLength={64}
          placeholder="inv_…"
          className={`${inputClass} font-mono text-sm`}
        />
      </div>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2 lg:col-span-6">
        <button type="submit" className={primaryButtonClass}>
          Apply
        </button>
        <Link href="/dashboard/webhooks" className="text-sm font-semibold text-brand-700 underline-offset-4 hover:underline">
          Clear filters
        </Link>
      </div>
    </form>
  );
}
