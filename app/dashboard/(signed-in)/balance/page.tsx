import type { Metadata } from "next";
import Link from "next/link";
import { Badge, type BadgeTone } from "@/components/dashboard/badge";
import { BalanceTopup } from "@/components/dashboard/balance-topup";
import { DataTable, type Column } from "@/components/dashboard/data-table";
import { EmptyState } from "@/components/dashboard/empty-state";
import { formatDateTime, formatUsd } from "@/components/dashboard/format";
import { PageHeader } from "@/components/dashboard/page-header";
import { Pagination } from "@/components/dashboard/pagination";
import { WalletProviders } from "@/components/wallet/wallet-providers";
import { getDb } from "@/lib/platform/db";
import { requireMerchant } from "@/lib/dashboard/http/auth";
import { balanceOf } from "@/lib/merchants";
import type { PaymentNetwork } from "@/lib/platform/networks";
import { getPayments } from "@/lib/payments/payments";
import { walletSetup } from "@/lib/payments/wallet-setup";
import { ledgerPage, ledgerPageQuery, listTopups, type LedgerRow, type Topup } from "@/lib/merchants/topups";

export const metadata: Metadata = { title: "Balance" };

const KIND: Record<LedgerRow["kind"], { label: string; tone: BadgeTone; sign: string }> = {
  credit: { label: "Credit", tone: "green", sign: "+" },
  debit: { label: "Debit", tone: "grey", sign: "−" },
  refund: { label: "Refund", tone: "blue", sign: "+" },
};

const linkClass = "font-mono text-sm text-brand-700 underline-offset-4 [overflow-wrap:anywhere] hover:underline";
const shortHash = (h: string) => (h.length > 20 ? `${h.slice(0, 10)}…${h.slice(-6)}` : h);

function Transaction({ network, hash, networks }: { network: string; hash: string; networks: PaymentNetwork[] }) {
  const n = networks.find((x) => x.network === network);
  const url = n?.explorerTx?.(hash);
  return (
    <span className="text-xs text-slate-600">
      {n?.name ?? network}:{" "}
      {url ? (
        <a href={url} className="font-mono text-brand-700 underline-offset-4 hover:underline" title={hash}>
          {shortHash(hash)}
        </a>
      ) : (
        <code title={hash}>{shortHash(hash)}</code>
      )}
    </span>
  );
}

function describe(row: LedgerRow, networks: PaymentNetwork[]): React.ReactNode {
  if (row.topup) {
    return (
      <span className="flex min-w-0 flex-col">
        <span>USDC top-up</span>
        <Transaction network={row.topup.network} hash={row.topup.transaction} networks={networks} />
      </span>
    );
  }
  if (row.kind === "debit" && row.invoiceId) {
    return (
      <span className="flex min-w-0 flex-col">
        <span>Invoice paid from the balance</span>
        <Link href={`/dashboard/invoices/${row.invoiceId}`} className={linkClass}>
          {row.invoiceId}
        </Link>
      </span>
    );
  }
  if (row.kind === "refund" && row.orderId) {
    return (
      <span className="flex min-w-0 flex-col">
        <span>Failed order refunded</span>
        <Link href={`/dashboard/orders/${row.orderId}`} className={linkClass}>
          {row.orderId}
        </Link>
      </span>
    );
  }
  return <span className="[overflow-wrap:anywhere]">{row.note ?? KIND[row.kind].label}</span>;
}

function OpenTopups({ topups, networks }: { topups: Topup[]; networks: PaymentNetwork[] }) {
  if (topups.length === 0) return null;
  return (
    <section aria-labelledby="open-topups" className="flex flex-col gap-2 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <h2 id="open-topups" className="text-base font-bold text-slate-900">
        Top-ups not credited
      </h2>
      <ul className="flex flex-col gap-2">
        {topups.map((t) => (
          <li key={t.id} className="flex flex-col gap-1 text-sm text-slate-800">
            <span className="flex flex-wrap items-center gap-2">
              <Badge tone={t.status === "pending" ? "amber" : "red"}>{t.status === "pending" ? "Waiting for the chain" : "Failed"}</Badge>
              <span className="font-semibold tabular-nums">{formatUsd(t.amountCents)}</span>
              <span className="text-slate-600">{formatDateTime(t.createdAt)}</span>
            </span>
            <Transaction network={t.network} hash={t.transaction} networks={networks} />
            <span className="text-xs text-slate-600">
              {t.status === "pending"
                ? "The payment was sent but its settlement was not confirmed in time. It is credited if the transaction lands."
                : "The transaction did not land: nothing was taken from the wallet and nothing was credited."}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default async function BalancePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant } = await requireMerchant();
  const { before } = ledgerPageQuery.parse(await searchParams);
  const db = await getDb();
  const [balance, { rows, older }, topups, { networks }, setup] = await Promise.all([
    balanceOf(db, merchant.id),
    ledgerPage(db, merchant.id, { before }),
    listTopups(db, merchant.id, 10),
    getPayments(),
    walletSetup(),
  ]);

  const columns: Column<LedgerRow>[] = [
    { header: "Date", rowHeader: true, className: "whitespace-nowrap", cell: (r) => formatDateTime(r.createdAt) },
    { header: "Type", cell: (r) => <Badge tone={KIND[r.kind].tone}>{KIND[r.kind].label}</Badge> },
    { header: "Description", cell: (r) => describe(r, networks) },
    {
      header: "Amount",
      className: "whitespace-nowrap tabular-nums",
      cell: (r) => (
        <span className={r.kind === "debit" ? "text-slate-900" : "font-semibold text-emerald-800"}>
          {KIND[r.kind].sign}
          {formatUsd(r.amountCents)}
        </span>
      ),
    },
    { header: "Balance after", className: "whitespace-nowrap tabular-nums", cell: (r) => formatUsd(r.balanceAfterCents) },
  ];

  return (
    <>
      <PageHeader title="Balance" description="What invoices paid from the balance draw on: top-ups and credits in, invoices out, failed orders back." />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)]">
        <div className="flex flex-col gap-4">
          <section aria-labelledby="balance-now" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
            <h2 id="balance-now" className="text-sm font-semibold text-slate-700">
              Available balance
            </h2>
            <p className="mt-1 text-3xl font-bold text-slate-900 tabular-nums" data-testid="balance">
              {formatUsd(balance)}
            </p>
          </section>
          <OpenTopups topups={topups.filter((t) => t.status !== "credited")} networks={networks} />
        </div>
        <WalletProviders setup={setup}>
          <BalanceTopup />
        </WalletProviders>
      </div>
      <section aria-labelledby="ledger-heading" className="flex flex-col gap-3">
        <h2 id="ledger-heading" className="text-lg font-bold text-slate-900">
          Ledger
        </h2>
        {rows.length === 0 ? (
          <EmptyState title="No entries yet" headingLevel={3}>
            <p>Top-ups, operator credits, invoices paid from the balance and refunds of failed orders appear here, each with the balance after it.</p>
          </EmptyState>
        ) : (
          <>
            <DataTable caption="Ledger entries, newest first" columns={columns} rows={rows} rowKey={(r) => String(r.id)} />
            <Pagination
              label="Ledger pages"
              summary={before ? "Older entries" : "Newest entries"}
              previous={before ? "/dashboard/balance" : null}
              next={older ? `/dashboard/balance?before=${older}` : null}
              previousLabel="Newest"
              nextLabel="Older"
            />
          </>
        )}
      </section>
    </>
  );
}
