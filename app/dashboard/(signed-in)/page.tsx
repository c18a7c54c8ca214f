import type { Metadata } from "next";
import Link from "next/link";
import { FirstApiCall } from "@/components/dashboard/first-api-call";
import { formatUsd } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { getDb } from "@/lib/db";
import { requestOrigin, requireMerchant } from "@/lib/http/dashboard-auth";
import { listMerchantOrders } from "@/lib/merchant-invoices/queries";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const { merchant } = await requireMerchant();
  const [{ total: orderCount }, origin] = await Promise.all([listMerchantOrders(await getDb(), merchant.id, { start: 0, limit: 1 }), requestOrigin()]);
  return (
    <>
      <PageHeader title="Overview" description={`Your account at a glance, ${merchant.name}.`} />

      {!merchant.apiAccess && (
        <p role="status" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
          API access is turned off for this account: API calls answer 403 until the shop&apos;s operator turns it back on.
        </p>
      )}

      <section aria-label="Summary" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <div className="flex flex-col gap-1 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-sm font-semibold text-slate-700">Balance</h2>
          <p className="text-3xl font-bold tabular-nums text-slate-900">{formatUsd(merchant.balanceCents)}</p>
          <p className="text-sm text-slate-700">Pays invoices with the payment method balance.</p>
        </div>
        <div className="flex flex-col gap-1 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-sm font-semibold text-slate-700">Orders</h2>
          <p className="text-3xl font-bold tabular-nums text-slate-900">{orderCount}</p>
          <p className="text-sm text-slate-700">Placed over the API so far.</p>
        </div>
      </section>

      {orderCount === 0 ? (
        <FirstApiCall origin={origin} />
      ) : (
        <p className="text-slate-700">
          Manage your credentials on{" "}
          <Link href="/dashboard/keys" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            API keys
          </Link>
          .
        </p>
      )}
    </>
  );
}
