import type { Metadata } from "next";
import { Card, textLinkClass } from "@/components/dashboard/card";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Breadcrumb } from "@/components/dashboard/breadcrumb";
import { DataTable } from "@/components/dashboard/data-table";
import { DetailList } from "@/components/dashboard/detail-list";
import { formatDateTime, formatUsd } from "@/components/dashboard/format";
import { formatPackage } from "@/lib/catalog/pricing";
import { PageHeader } from "@/components/dashboard/page-header";
import { InvoiceStatusBadge, OrderStatusBadge, WebhookStatusBadge } from "@/components/dashboard/status-badges";
import { getDb } from "@/lib/platform/db";
import { requireMerchant } from "@/lib/dashboard/http/auth";
import { describeInvoicePayment } from "@/lib/checkout/dashboard-invoice-payment";
import { getMerchantInvoice } from "@/lib/checkout/merchant-invoices";
import { merchantStatus } from "@/lib/checkout/merchant-invoice-view";
import { getPayments } from "@/lib/payments/payments";
import { listWebhookDeliveries, type WebhookDelivery } from "@/lib/webhooks";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Invoice ${(await params).id}` };
}

export default async function InvoicePage({ params }: Props) {
  const { merchant } = await requireMerchant();
  const id = (await params).id;
  const db = await getDb();
  const found = await getMerchantInvoice(db, merchant.id, id);
  if (!found) notFound();
  const { invoice, orders } = found;
  const now = new Date();
  const [{ networks }, { deliveries }] = await Promise.all([getPayments(), listWebhookDeliveries(db, merchant.id, { invoiceId: invoice.id, limit: 100 })]);
  const payment = describeInvoicePayment(invoice, networks, now);
  const status = merchantStatus(invoice, now);

  return (
    <>
      <Breadcrumb section="Invoices" href="/dashboard/invoices" current={invoice.id} />
      <PageHeader title={`Invoice ${invoice.id}`}>
        <InvoiceStatusBadge status={status} />
      </PageHeader>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card id="invoice-facts" title="Details">
          <DetailList
            items={[
              { term: "Created", value: formatDateTime(invoice.createdAt) },
              ...(invoice.paidAt ? [] : [{ term: status === "unpaid" ? "Expires" : "Expired", value: formatDateTime(invoice.expiresAt) }]),
              ...(invoice.completedAt ? [{ term: "Completed", value: formatDateTime(invoice.completedAt) }] : []),
              { term: "Webhook URL", value: invoice.webhookUrl ? <span className="font-mono text-sm">{invoice.webhookUrl}</span> : "None" },
            ]}
          />
        </Card>
        <Card id="invoice-payment" title="Payment">
          <DetailList
            items={[
              { term: "Method", value: payment.method },
              {
                term: "Amount",
                value: `${payment.priceCents === null ? "" : formatUsd(payment.priceCents)}${payment.usdc && payment.giftCardCents === null ? ` (${payment.usdc})` : ""}`,
              },
              ...(payment.giftCardCents !== null
                ? [{ term: "Gift card", value: formatUsd(payment.giftCardCents) }, ...(payment.usdc ? [{ term: "In USDC", value: payment.usdc }] : [])]
                : []),
              { term: "Status", value: payment.status.replace("_", " ") },
              ...(payment.paidAt ? [{ term: "Paid", value: formatDateTime(payment.paidAt) }] : []),
              ...(payment.ledgerEntryId !== null
                ? [
                    {
                      term: "Ledger",
                      value: (
                        <Link href="/dashboard/balance" className={textLinkClass}>
                          Debit #{payment.ledgerEntryId} on your balance
                        </Link>
                      ),
                    },
                  ]
                : []),
              ...(payment.transaction
                ? [
                    {
                      term: "Transaction",
                      value: payment.transaction.url ? (
                        <a href={payment.transaction.url} target="_blank" rel="noopener noreferrer" className={`${textLinkClass} font-mono text-sm break-all`}>
                          {payment.transaction.hash}
                          <span className="sr-only"> on {payment.transaction.network} (opens a block explorer)</span>
                        </a>
                      ) : (
                        <span className="font-mono text-sm break-all">
                          {payment.transaction.hash} <span className="font-sans text-slate-600">on {payment.transaction.network}</span>
                        </span>
                      ),
                    },
                  ]
                : []),
              ...(payment.payer ? [{ term: "Paid by", value: <span className="font-mono text-sm break-all">{payment.payer}</span> }] : []),
            ]}
          />
          {status === "unpaid" && payment.usdc && (
            <p className="text-sm text-slate-700">
              Waiting for USDC.{" "}
              <Link href={`/pay/${invoice.id}`} className={textLinkClass}>
                Open the payment page
              </Link>
            </p>
          )}
        </Card>
      </div>

      <section aria-labelledby="invoice-orders" className="flex flex-col gap-3">
        <h2 id="invoice-orders" className="text-lg font-bold text-slate-900">
          Orders
        </h2>
        <DataTable
          caption={`Orders of invoice ${invoice.id}`}
          rows={orders}
          rowKey={(o) => o.id}
          columns={[
            {
              header: "Order",
              rowHeader: true,
              cell: (o) => (
                <Link
                  href={`/dashboard/orders/${o.id}`}
                  className="font-mono text-sm [overflow-wrap:anywhere] text-brand-700 underline-offset-4 hover:underline"
                >
                  {o.id}
                </Link>
              ),
            },
            { header: "Product", cell: (o) => `${o.productName} · ${formatPackage(o.packageValue, o.currency)}` },
            { header: "Status", cell: (o) => <OrderStatusBadge status={o.status} /> },
            { header: "Price", className: "tabular-nums", cell: (o) => (o.priceCents === null ? "—" : formatUsd(o.priceCents)) },
          ]}
        />
      </section>

      <section aria-labelledby="invoice-webhooks" className="flex flex-col gap-3">
        <h2 id="invoice-webhooks" className="text-lg font-bold text-slate-900">
          Webhook deliveries
        </h2>
        {deliveries.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-slate-700">
            {invoice.webhookUrl
              ? "None yet: the invoice is delivered to its webhook URL once it reaches a final status."
              : "This invoice has no webhook URL. Pass webhook_url when you create an invoice to be told when it is final."}
          </p>
        ) : (
          <DataTable caption={`Webhook deliveries of invoice ${invoice.id}`} rows={deliveries} rowKey={(d) => d.id} columns={deliveryColumns} />
        )}
      </section>
    </>
  );
}

const deliveryColumns = [
  {
    header: "Event",
    rowHeader: true,
    cell: (d: WebhookDelivery) => (
      <Link href={`/dashboard/webhooks/${d.id}`} className="text-brand-700 underline-offset-4 hover:underline">
        {d.eventType}
        <span className="sr-only"> delivery {d.id}</span>
      </Link>
    ),
  },
  { header: "URL", cell: (d: WebhookDelivery) => <span className="font-mono text-xs break-all">{d.url}</span> },
  { header: "Status", cell: (d: WebhookDelivery) => <WebhookStatusBadge delivery={d} /> },
  { header: "Attempts", className: "tabular-nums", cell: (d: WebhookDelivery) => d.attempts },
  { header: "Last answer", cell: (d: WebhookDelivery) => (d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? "—")) },
  { header: "Event time", className: "whitespace-nowrap", cell: (d: WebhookDelivery) => formatDateTime(d.eventAt) },
];
