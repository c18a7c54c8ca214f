import { DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, type WebhookLogQuery } from "@/lib/dashboard/webhooks";
import { FilterActions, FilterField, FilterForm, FilterSelect } from "./filter-form";
import { inputClass } from "./form-field";

/**
 * The delivery log's filters, like the orders table's. Applying them starts again from the newest message. Render it
 * with a `key` that changes with the query (its fields are uncontrolled).
 */
export function WebhookFilters({ query, urls }: { query: WebhookLogQuery; urls: string[] }) {
  return (
    <FilterForm action="/dashboard/webhooks" label="Delivery log" layout="sm:grid-cols-2 lg:grid-cols-6">
      <FilterField id="webhooks-status" label="Status">
        <FilterSelect id="webhooks-status" name="status" value={query.status ?? ""} any="Any status" choices={DELIVERY_STATUSES} />
      </FilterField>
      <FilterField id="webhooks-event" label="Event type">
        <FilterSelect id="webhooks-event" name="event" value={query.event ?? ""} any="Any event" choices={WEBHOOK_EVENT_TYPES} />
      </FilterField>
      <FilterField id="webhooks-url" label="Target URL" note="(exact)" className="sm:col-span-2 lg:col-span-2">
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
      </FilterField>
      <FilterField id="webhooks-invoice" label="Invoice id" className="sm:col-span-2 lg:col-span-2">
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
      </FilterField>
      <FilterActions clearHref="/dashboard/webhooks" className="sm:col-span-2 lg:col-span-6" />
    </FilterForm>
  );
}
