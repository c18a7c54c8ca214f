import type { Metadata } from "next";
import Link from "next/link";
import { cache, Suspense } from "react";
import { Badge } from "@/components/dashboard/badge";
import { FirstApiCall } from "@/components/dashboard/first-api-call";
import { formatDateTime, formatUsd } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { OrderStatusBadge } from "@/components/dashboard/status-badges";
import { SalesChart } from "@/components/dashboard/sales-chart";
import { getDb } from "@/lib/platform/db";
import { requestOrigin, requireMerchant } from "@/lib/dashboard/http/auth";
import { merchantOverview, needsAttention, type Attention, type MerchantOverview, type SalesFigure } from "@/lib/dashboard/stats";

export const metadata: Metadata = { title: "Overview" };

/** Read once per request: the figures and the chart share it. */
const overviewOf = cache(async (merchantId: string) => merchantOverview(await getDb(), merchantId));

const card = "flex flex-col gap-1 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200";

export default async function OverviewPage() {
  const { merchant } = await requireMerchant();
  return (
    <>
      <PageHeader title="Overview" description={`Your account at a glance, ${merchant.name}.`} />

      {!merchant.apiAccess && (
        <p role="status" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
          API access is turned off for this account: API calls answer 403 until the shop&apos;s operator turns it back on.
        </p>
      )}

      <section aria-label="Balance and sales" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <div className={card}>
          <h2 className="text-sm font-semibold text-slate-700">Balance</h2>
          <p className="text-3xl font-bold text-slate-900 tabular-nums">{formatUsd(merchant.balanceCents)}</p>
          <Link href="/dashboard/balance" className="text-sm font-semibold text-brand-700 underline-offset-4 hover:underline">
            Ledger and top-up
          </Link>
        </div>
        {/* The figures come from the orders: they stream in after the balance. */}
        <Suspense fallback={<FigurePlaceholders />}>
          <SalesFigures merchantId={merchant.id} />
        </Suspense>
      </section>

      <Suspense fallback={<div className={`${card} h-64 animate-pulse`} aria-busy="true" />}>
        <Activity merchantId={merchant.id} />
      </Suspense>
    </>
  );
}

function FigurePlaceholders() {
  return (
    <>
      {["Sales today", "Last 7 days", "Last 30 days"].map((label) => (
        <div key={label} className={card} aria-busy="true">
          <h2 className="text-sm font-semibold text-slate-700">{label}</h2>
          <p className="h-9 w-24 animate-pulse rounded bg-slate-100" />
        </div>
      ))}
    </>
  );
}

async function SalesFigures({ merchantId }: { merchantId: string }) {
  const o = await overviewOf(merchantId);
  const figure = (label: string, f: SalesFigure) => (
    <div key={label} className={card}>
      <h2 className="text-sm font-semibold text-slate-700">{label}</h2>
      <p className="text-3xl font-bold text-slate-900 tabular-nums">{formatUsd(f.cents)}</p>
      <p className="text-sm text-slate-700">
        {f.orders} order{f.orders === 1 ? "" : "s"}
      </p>
    </div>
  );
  return (
    <>
      {figure("Sales today", o.today)}
      {figure("Last 7 days", o.week)}
      {figure("Last 30 days", o.month)}
    </>
  );
}

async function Activity({ merchantId }: { merchantId: string }) {
  const db = await getDb();
  const [o, attention, origin] = await Promise.all([overviewOf(merchantId), needsAttention(db, merchantId), requestOrigin()]);
  const total = Object.values(o.ordersByStatus).reduce((a, b) => a + b, 0);
  if (total === 0) return <FirstApiCall origin={origin} />;
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <section aria-labelledby="sales-title" className={`${card} gap-3`}>
        <h2 id="sales-title" className="text-lg font-bold text-slate-900">
          Sales, last 30 days
        </h2>
        <SalesChart days={o.daily} />
      </section>

      <section aria-labelledby="status-title" className={`${card} gap-3`}>
        <h2 id="status-title" className="text-lg font-bold text-slate-900">
          Orders by status
        </h2>
        <ul className="flex flex-col divide-y divide-slate-100">
          {(Object.keys(o.ordersByStatus) as (keyof MerchantOverview["ordersByStatus"])[]).map((status) => (
            <li key={status}>
              <Link href={`/dashboard/orders?status=${status}`} className="flex items-center justify-between gap-3 rounded py-2 hover:bg-slate-50">
                <OrderStatusBadge status={status} />
                <span className="font-semibold text-slate-900 tabular-nums">{o.ordersByStatus[status]}</span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="attention-title" className={`${card} gap-3 lg:col-span-2`}>
        <h2 id="attention-title" className="text-lg font-bold text-slate-900">
          Needs attention
        </h2>
        {attention.length === 0 ? (
          <p className="text-slate-700">
            Nothing: no paid order failed and no webhook is failing.
            {o.ordersByStatus.failed > 0 && " The failed orders above belong to invoices that were never paid: nothing was charged."}
          </p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-100">
            {attention.map((item) => (
              <AttentionItem key={`${item.kind}:${item.id}`} item={item} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function AttentionItem({ item }: { item: Attention }) {
  if (item.kind === "order") {
    return (
      <li className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
        <span className="flex min-w-0 flex-col">
          <Link href={`/dashboard/orders/${item.id}`} className="font-semibold [overflow-wrap:anywhere] text-brand-700 underline-offset-4 hover:underline">
            Order {item.id} failed: {item.productName}
          </Link>
          <span className="text-sm text-slate-700">{item.status === "refunded" ? "Refunded to your balance." : (item.error ?? "Not delivered.")}</span>
        </span>
        <span className="flex shrink-0 items-center gap-2 text-sm text-slate-600">
          <OrderStatusBadge status={item.status} />
          {formatDateTime(item.at)}
        </span>
      </li>
    );
  }
  return (
    <li className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between">
      <span className="flex min-w-0 flex-col">
        <Link href={`/dashboard/webhooks/${item.id}`} className="font-semibold [overflow-wrap:anywhere] text-brand-700 underline-offset-4 hover:underline">
          Webhook to <span className="break-all">{item.url}</span> {item.status === "failed" ? "failed" : "is failing"}
        </Link>
        <span className="text-sm text-slate-700">
          {item.attempts} attempt{item.attempts === 1 ? "" : "s"}, last{" "}
          {item.lastStatusCode ? `answered ${item.lastStatusCode}` : (item.lastError ?? "got no answer")}.
        </span>
      </span>
      <span className="flex shrink-0 items-center gap-2 text-sm text-slate-600">
        <Badge tone={item.status === "failed" ? "red" : "amber"}>{item.status === "failed" ? "failed" : "retrying"}</Badge>
        {formatDateTime(item.at)}
      </span>
    </li>
  );
}
