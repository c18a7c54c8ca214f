import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Breadcrumb } from "@/components/dashboard/breadcrumb";
import { Card } from "@/components/dashboard/card";
import { DataTable, type Column } from "@/components/dashboard/data-table";
import { DetailList } from "@/components/dashboard/detail-list";
import { formatDateTime, formatUsd } from "@/components/dashboard/format";
import { secondaryButtonClass } from "@/components/dashboard/form-field";
import { PageHeader } from "@/components/dashboard/page-header";
import { BatchStatusBadge } from "@/components/dashboard/status-badges";
import { batchDetail, batchValue } from "@/lib/dashboard/gift-card-batches";
import { getDb } from "@/lib/platform/db";
import type { IssuedCard } from "@/lib/merchants/gift-card-batches";
import { requireMerchant } from "@/lib/dashboard/http/auth";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Gift card batch ${(await params).id}` };
}

const STATUS_NOTE: Record<string, string> = {
  processing: "Its cards are being issued: reload this page to see them as they are made.",
  complete: "Every card is issued.",
  partial: "Issuing stopped before the end: the cards below were issued, and the price of the others went back to your balance.",
  failed: "No card could be issued: the whole price went back to your balance.",
};

const columns: Column<IssuedCard>[] = [
  { header: "Code", rowHeader: true, cell: (c) => <code className="font-mono text-sm whitespace-nowrap">{c.code}</code> },
  { header: "Value", className: "whitespace-nowrap tabular-nums", cell: (c) => `${batchValue(c.value, c.currency)} ${c.currency}` },
  { header: "Balance", className: "whitespace-nowrap tabular-nums", cell: (c) => `${batchValue(c.balance, c.currency)} ${c.currency}` },
  { header: "Card", cell: (c) => <span className="font-mono text-xs [overflow-wrap:anywhere] text-slate-600">{c.id}</span> },
];

export default async function GiftCardBatchPage({ params }: Props) {
  const { merchant } = await requireMerchant();
  const detail = await batchDetail(await getDb(), merchant.id, (await params).id);
  if (!detail) notFound();
  const { batch, cards } = detail;
  const value = `${batchValue(batch.valueMinor, batch.currency)} ${batch.currency}`;
  return (
    <>
      <Breadcrumb section="Gift cards" href="/dashboard/gift-cards" current={batch.id} />
      <PageHeader title={`${batch.quantity} × ${value}`} description={`Gift card batch ${batch.id}`}>
        <BatchStatusBadge status={batch.status} />
      </PageHeader>

      <Card id="batch-facts" title="Details">
        <p className="text-slate-700">{STATUS_NOTE[batch.status]}</p>
        <DetailList
          items={[
            { term: "Cards", value: `${batch.quantity} × ${value}` },
            { term: "Issued", value: `${batch.issued} of ${batch.quantity}` },
            { term: "Price", value: formatUsd(batch.priceCents) },
            ...(batch.refundCents ? [{ term: "Refunded", value: `${formatUsd(batch.refundCents)} to your balance` }] : []),
            { term: "Created", value: formatDateTime(batch.createdAt) },
            ...(batch.completedAt ? [{ term: "Finished", value: formatDateTime(batch.completedAt) }] : []),
          ]}
        />
      </Card>

      <section aria-labelledby="cards-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="cards-heading" className="text-lg font-bold text-slate-900">
            Cards
          </h2>
          {cards.length > 0 && (
            <a href={`/dashboard/gift-cards/${batch.id}/codes.csv`} download className={`${secondaryButtonClass} inline-flex items-center`}>
              Download CSV
            </a>
          )}
        </div>
        <p className="text-sm text-slate-700">
          Each code is worth its balance at checkout. Keep them as you would keep cash: anyone holding a code can spend it.
        </p>
        {cards.length === 0 ? (
          <p className="text-slate-700">{batch.status === "processing" ? "No card issued yet." : "No card was issued."}</p>
        ) : (
          <DataTable caption={`Cards of batch ${batch.id}`} columns={columns} rows={cards} rowKey={(c) => c.id} />
        )}
      </section>
    </>
  );
}
