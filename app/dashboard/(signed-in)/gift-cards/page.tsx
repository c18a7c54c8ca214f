import type { Metadata } from "next";
import Link from "next/link";
import { BuyBatchForm } from "@/components/dashboard/buy-batch-form";
import { DataTable, type Column } from "@/components/dashboard/data-table";
import { EmptyState } from "@/components/dashboard/empty-state";
import { formatDateTime, formatUsd } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { Pagination } from "@/components/dashboard/pagination";
import { BatchStatusBadge } from "@/components/dashboard/status-badges";
import { syncFxSource } from "@/lib/catalog/fx-store";
import { batchesPage, batchListQuery, batchValue, newBatchRequestKey } from "@/lib/dashboard/gift-card-batches";
import { getDb } from "@/lib/platform/db";
import { BATCH_MAX_QUANTITY, type Batch } from "@/lib/merchants/gift-card-batches";
import { requireMerchant } from "@/lib/dashboard/http/auth";
import { balanceOf } from "@/lib/merchants";
import { buyBatchAction } from "./actions";

export const metadata: Metadata = { title: "Gift cards" };

/** Offered in the currency field (any ISO code with a current rate is taken): those the rates know now. */
const SUGGESTED = ["USD", "EUR", "GBP", "CAD", "AUD", "CHF", "JPY", "SEK", "NOK", "DKK", "PLN", "MXN", "BRL", "INR", "SGD"];

const linkClass = "font-mono text-sm [overflow-wrap:anywhere] text-brand-700 underline-offset-4 hover:underline";

const columns: Column<Batch>[] = [
  {
    header: "Batch",
    rowHeader: true,
    cell: (b) => (
      <Link href={`/dashboard/gift-cards/${b.id}`} className={linkClass}>
        {b.id}
      </Link>
    ),
  },
  { header: "Created", className: "whitespace-nowrap", cell: (b) => formatDateTime(b.createdAt) },
  {
    header: "Cards",
    className: "whitespace-nowrap tabular-nums",
    cell: (b) => `${b.quantity} × ${batchValue(b.valueMinor, b.currency)} ${b.currency}`,
  },
  { header: "Status", cell: (b) => <BatchStatusBadge status={b.status} /> },
  { header: "Issued", className: "tabular-nums", cell: (b) => `${b.issued} of ${b.quantity}` },
  { header: "Price", className: "whitespace-nowrap tabular-nums", cell: (b) => formatUsd(b.priceCents) },
  { header: "Refunded", className: "whitespace-nowrap tabular-nums", cell: (b) => (b.refundCents ? formatUsd(b.refundCents) : "—") },
];

export default async function GiftCardsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant } = await requireMerchant();
  const { after } = batchListQuery.parse(await searchParams);
  const db = await getDb();
  const [{ rows, older }, balance, fx] = await Promise.all([batchesPage(db, merchant.id, { after }), balanceOf(db, merchant.id), syncFxSource(db)]);
  const currencies = SUGGESTED.filter((c) => fx.usdPerUnit(c));
  return (
    <>
      <PageHeader
        title="Gift cards"
        description="The shop's own gift cards, bought in batches from your balance: hand their codes to your customers, who pay with them at checkout."
      />
      <BuyBatchForm
        action={buyBatchAction}
        currencies={currencies}
        maxQuantity={BATCH_MAX_QUANTITY}
        balance={formatUsd(balance)}
        requestKey={newBatchRequestKey()}
      />
      <section aria-labelledby="batches-heading" className="flex flex-col gap-3">
        <h2 id="batches-heading" className="text-lg font-bold text-slate-900">
          Your batches
        </h2>
        {rows.length === 0 ? (
          <EmptyState title={after ? "No older batches" : "No batches yet"} headingLevel={3}>
            {after ? (
              <p>
                <Link href="/dashboard/gift-cards" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
                  See the newest batches
                </Link>
              </p>
            ) : (
              <p>Buy a batch above; it appears here with its status, and its page lists the codes and downloads them as CSV.</p>
            )}
          </EmptyState>
        ) : (
          <>
            <DataTable caption="Gift card batches, newest first" columns={columns} rows={rows} rowKey={(b) => b.id} />
            <Pagination
              label="Batch pages"
              summary={after ? "Older batches" : "Newest batches"}
              previous={after ? "/dashboard/gift-cards" : null}
              next={older ? `/dashboard/gift-cards?after=${older}` : null}
              previousLabel="Newest"
              nextLabel="Older"
            />
          </>
        )}
      </section>
    </>
  );
}
