import type { Metadata } from "next";
import { Card, textLinkClass } from "@/components/dashboard/card";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Breadcrumb } from "@/components/dashboard/breadcrumb";
import { DetailList } from "@/components/dashboard/detail-list";
import { formatDateTime, formatUsd } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { RevealRedemption } from "@/components/dashboard/reveal-redemption";
import { OrderStatusBadge } from "@/components/dashboard/status-badges";
import { Timeline } from "@/components/dashboard/timeline";
import { formatPackage, formatUsdc } from "@/lib/catalog/pricing";
import { getDb } from "@/lib/platform/db";
import { requireMerchant } from "@/lib/dashboard/http/auth";
import { getMerchantOrderDetail } from "@/lib/dashboard/order-detail";
import { getPayments } from "@/lib/payments/payments";
import { revealRedemptionAction } from "../actions";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Order ${(await params).id}` };
}

export default async function OrderPage({ params }: Props) {
  const { merchant } = await requireMerchant();
  const [db, { networks }] = await Promise.all([getDb(), getPayments()]);
  const detail = await getMerchantOrderDetail(db, merchant.id, (await params).id, new Date(), networks);
  if (!detail) notFound();
  const { order, invoice, refund, timeline } = detail;
  return (
    <>
      <Breadcrumb section="Orders" href="/dashboard/orders" current={order.id} />
      <PageHeader title={order.productName} description={`Order ${order.id}`}>
        <OrderStatusBadge status={order.status} />
      </PageHeader>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card id="order-facts" title="Details">
          <DetailList
            items={[
              {
                term: "Product",
                value: (
                  <span>
                    {order.productName} <span className="font-mono text-sm text-slate-600">({order.productId})</span>
                  </span>
                ),
              },
              { term: "Value", value: formatPackage(order.packageValue, order.currency) },
              { term: "Price", value: order.priceCents === null ? formatUsdc(order.priceUsdc) : formatUsd(order.priceCents) },
              ...(order.recipient ? [{ term: "Recipient", value: order.recipient }] : []),
              {
                term: "Invoice",
                value: (
                  <Link href={`/dashboard/invoices/${invoice.id}`} className={`${textLinkClass} font-mono text-sm`}>
                    {invoice.id}
                  </Link>
                ),
              },
              { term: "Created", value: formatDateTime(order.createdAt) },
              ...(order.deliveredAt ? [{ term: "Delivered", value: formatDateTime(order.deliveredAt) }] : []),
              ...(refund ? [{ term: "Refund", value: `${formatUsd(refund.amountCents)} to your balance, ${formatDateTime(refund.createdAt)}` }] : []),
              ...(!refund && order.refundCents !== null ? [{ term: "Refund", value: formatUsd(order.refundCents) }] : []),
            ]}
          />
        </Card>
        <Card id="order-timeline" title="Status">
          <Timeline steps={timeline} label="Order status history" />
        </Card>
      </div>

      <Card id="order-redemption" title="Redemption">
        {order.status === "delivered" ? (
          <>
            <p className="text-slate-700">The code, PIN, link or eSIM activation your customer needs. Shown on request, to keep it off screens by accident.</p>
            <RevealRedemption
              orderId={order.id}
              title={`${order.productName} · ${formatPackage(order.packageValue, order.currency)}`}
              action={revealRedemptionAction}
            />
          </>
        ) : (
          <p className="text-slate-700">
            {order.status === "failed" || order.status === "refunded"
              ? "This order was not delivered, so it has no redemption details."
              : "Redemption details appear here once the order is delivered."}
          </p>
        )}
      </Card>
    </>
  );
}
