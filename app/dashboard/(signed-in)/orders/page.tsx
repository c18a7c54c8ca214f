import type { Metadata } from "next";
import Link from "next/link";
import { DataTable, type Column } from "@/components/dashboard/data-table";
import { EmptyState } from "@/components/dashboard/empty-state";
import { FirstApiCall } from "@/components/dashboard/first-api-call";
import { formatDateTime, formatUsd } from "@/components/dashboard/format";
import { formatPackage } from "@/lib/catalog/pricing";
import { OrderFilters } from "@/components/dashboard/order-filters";
import { PageHeader } from "@/components/dashboard/page-header";
import { Pagination } from "@/components/dashboard/pagination";
import { OrderStatusBadge } from "@/components/dashboard/status-badges";
import { getDb } from "@/lib/platform/db";
import { requestOrigin, requireMerchant } from "@/lib/dashboard/http/auth";
import {
  ORDERS_PAGE_SIZE,
  orderListParams,
  parseOrderListQuery,
  searchMerchantOrders,
  type ListedOrder,
  type OrderListQuery,
  type OrderSort,
} from "@/lib/dashboard/order-list";

export const metadata: Metadata = { title: "Orders" };

const IGNORED_NAMES: Record<string, string> = {
  q: "search",
  status: "status",
  from: "from date",
  to: "to date",
  sort: "sort",
  dir: "sort order",
  page: "page",
};

const href = (query: Partial<OrderListQuery>) => {
  const params = orderListParams(query).toString();
  return params ? `/dashboard/orders?${params}` : "/dashboard/orders";
};

export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant } = await requireMerchant();
  const { query, ignored } = parseOrderListQuery(await searchParams);
  const db = await getDb();
  const { rows, total, pages } = await searchMerchantOrders(db, merchant.id, query);
  const filtered = Boolean(query.q || query.status || query.from || query.to);

  // A header sorts by its column, newest/highest first; clicked again, the other way. Sorting starts from page 1.
  const sortBy = (sort: OrderSort) => ({
    href: href({ ...query, sort, dir: query.sort === sort && query.dir === "desc" ? "asc" : "desc", page: 1 }),
    direction: query.sort === sort ? (query.dir === "asc" ? ("ascending" as const) : ("descending" as const)) : null,
  });
  const columns: Column<ListedOrder>[] = [
    {
      header: "Order",
      rowHeader: true,
      cell: (o) => (
        <Link href={`/dashboard/orders/${o.id}`} className="font-mono text-sm [overflow-wrap:anywhere] text-brand-700 underline-offset-4 hover:underline">
          {o.id}
        </Link>
      ),
    },
    {
      header: "Product",
      sort: sortBy("product"),
      cell: (o) => (
        <span className="flex min-w-0 flex-col">
          <span className="[overflow-wrap:anywhere]">{o.productName}</span>
          <span className="text-xs text-slate-600">{formatPackage(o.packageValue, o.currency)}</span>
        </span>
      ),
    },
    { header: "Status", sort: sortBy("status"), cell: (o) => <OrderStatusBadge status={o.status} /> },
    { header: "Price", sort: sortBy("price"), className: "tabular-nums", cell: (o) => (o.priceCents === null ? "—" : formatUsd(o.priceCents)) },
    { header: "Created", sort: sortBy("created"), className: "whitespace-nowrap", cell: (o) => formatDateTime(o.createdAt) },
  ];

  const exportParams = orderListParams({ ...query, page: 1 }).toString();
  const first = (query.page - 1) * ORDERS_PAGE_SIZE + 1;
  return (
    <>
      <PageHeader title="Orders" description="Every order your invoices made, with its status. Open one for its timeline and redemption details." />
      {total === 0 && !filtered ? (
        <FirstApiCall origin={await requestOrigin()} />
      ) : (
        <>
          <OrderFilters key={exportParams} query={query} exportHref={`/dashboard/orders/export.csv${exportParams ? `?${exportParams}` : ""}`} />
          {ignored.length > 0 && (
            <p role="status" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
              Ignored a value this table does not understand: {ignored.map((k) => IGNORED_NAMES[k] ?? k).join(", ")}.
            </p>
          )}
          {rows.length === 0 ? (
            <EmptyState title="No orders match">
              <p>
                {query.page > pages ? "This page is past the last one. " : "Try fewer filters or another search. "}
                <Link href={href({ ...query, page: 1 })} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
                  {query.page > pages ? "Go to the first page" : "See the first page"}
                </Link>{" "}
                or{" "}
                <Link href="/dashboard/orders" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
                  clear the filters
                </Link>
                .
              </p>
            </EmptyState>
          ) : (
            <>
              <DataTable caption="Orders" columns={columns} rows={rows} rowKey={(o) => o.id} />
              <Pagination
                label="Orders pages"
                summary={`${first}–${first + rows.length - 1} of ${total} order${total === 1 ? "" : "s"} · page ${query.page} of ${pages}`}
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
