import type { Metadata } from "next";
import Link from "next/link";
import { DataTable, type Column } from "@/components/dashboard/data-table";
import { EmptyState } from "@/components/dashboard/empty-state";
import { FirstApiCall } from "@/components/dashboard/first-api-call";
import { formatDateTime, formatUsd } from "@/components/dashboard/format";
import { FilterActions, FilterField, FilterForm, FilterSelect } from "@/components/dashboard/filter-form";
import { inputClass } from "@/components/dashboard/form-field";
import { PageHeader } from "@/components/dashboard/page-header";
import { Pagination } from "@/components/dashboard/pagination";
import { InvoiceStatusBadge } from "@/components/dashboard/status-badges";
import { getDb } from "@/lib/platform/db";
import { requestOrigin, requireMerchant } from "@/lib/dashboard/http/auth";
import {
  INVOICE_LIST_STATUSES,
  INVOICES_PAGE_SIZE,
  invoiceListParams,
  parseInvoiceListQuery,
  searchMerchantInvoices,
  type InvoiceListQuery,
  type ListedInvoice,
} from "@/lib/checkout/dashboard-invoice-list";
import { paymentMethodLabel } from "@/lib/checkout/dashboard-invoice-payment";
import { merchantStatus } from "@/lib/checkout/merchant-invoice-view";

export const metadata: Metadata = { title: "Invoices" };

const href = (query: Partial<InvoiceListQuery>) => {
  const params = invoiceListParams(query).toString();
  return params ? `/dashboard/invoices?${params}` : "/dashboard/invoices";
};

export default async function InvoicesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant } = await requireMerchant();
  const query = parseInvoiceListQuery(await searchParams);
  const now = new Date();
  const { rows, total, pages } = await searchMerchantInvoices(await getDb(), merchant.id, query, now);
  const filtered = Boolean(query.q || query.status);

  const columns: Column<ListedInvoice>[] = [
    {
      header: "Invoice",
      rowHeader: true,
      cell: (inv) => (
        <Link href={`/dashboard/invoices/${inv.id}`} className="font-mono text-sm [overflow-wrap:anywhere] text-brand-700 underline-offset-4 hover:underline">
          {inv.id}
        </Link>
      ),
    },
    {
      header: "Orders",
      cell: (inv) => (
        <span className="flex min-w-0 flex-col">
          <span>
            {inv.orderCount} order{inv.orderCount === 1 ? "" : "s"}
          </span>
          <span className="text-xs [overflow-wrap:anywhere] text-slate-600">{inv.productNames.join(", ")}</span>
        </span>
      ),
    },
    { header: "Status", cell: (inv) => <InvoiceStatusBadge status={merchantStatus(inv, now)} /> },
    { header: "Payment", cell: (inv) => paymentMethodLabel(inv.paymentMethod, [], inv.giftCardCents !== null) },
    { header: "Price", className: "tabular-nums", cell: (inv) => (inv.priceCents === null ? "—" : formatUsd(inv.priceCents)) },
    { header: "Created", className: "whitespace-nowrap", cell: (inv) => formatDateTime(inv.createdAt) },
  ];
  const first = (query.page - 1) * INVOICES_PAGE_SIZE + 1;
  return (
    <>
      <PageHeader title="Invoices" description="Each API call to POST /invoices made one: what it cost, how it was paid, and its orders and webhooks." />
      {total === 0 && !filtered ? (
        <FirstApiCall origin={await requestOrigin()} nothing="invoices" />
      ) : (
        <>
          {/* Keyed by the query: its uncontrolled fields show the new query after a client-side navigation. */}
          <FilterForm
            key={invoiceListParams({ ...query, page: 1 }).toString()}
            action="/dashboard/invoices"
            label="Invoices"
            layout="sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-end"
          >
            <FilterField id="invoices-q" label="Search">
              <input
                id="invoices-q"
                name="q"
                type="search"
                defaultValue={query.q}
                maxLength={100}
                placeholder="Invoice id, order id or product"
                className={inputClass}
              />
            </FilterField>
            <FilterField id="invoices-status" label="Status">
              <FilterSelect
                id="invoices-status"
                name="status"
                value={query.status ?? ""}
                any="Any status"
                choices={INVOICE_LIST_STATUSES.map((s) => ({ value: s, label: s.replace("_", " ") }))}
              />
            </FilterField>
            <FilterActions />
          </FilterForm>
          {rows.length === 0 ? (
            <EmptyState title="No invoices match">
              <p>
                Try another search or{" "}
                <Link href="/dashboard/invoices" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
                  see every invoice
                </Link>
                .
              </p>
            </EmptyState>
          ) : (
            <>
              <DataTable caption="Invoices" columns={columns} rows={rows} rowKey={(inv) => inv.id} />
              <Pagination
                label="Invoices pages"
                summary={`${first}–${first + rows.length - 1} of ${total} invoice${total === 1 ? "" : "s"} · page ${query.page} of ${pages}`}
                previous={query.page > 1 ? href({ ...query, page: query.page - 1 }) : null}
                next={query.page < pages ? href({ ...query, page: query.page + 1 }) : null}
              />
            </>
          )}
        </>
      )}
    </>
  );
}
