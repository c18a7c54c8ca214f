"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { ConnectWallet } from "@/components/wallet/connect-wallet";
import { SignedIn } from "@/components/wallet/signed-in";
import { formatPackage, formatUsdcDecimal } from "@/lib/catalog/pricing";
import { explainError } from "./explain-error";
import { myEsims, myOrders } from "./shop-api";

const PAGE = 10;

/** What a list shows before its data: why it failed (an alert), or that it is loading (a status). */
function QueryState({ error, loading }: { error: unknown; loading: string }) {
  return error ? (
    <p role="alert" className="text-red-700">
      {explainError(error)}
    </p>
  ) : (
    <p role="status" className="text-slate-700">
      {loading}
    </p>
  );
}

function OrdersList({ token }: { token: string }) {
  const [start, setStart] = useState(0);
  // The page shown stays while the next loads, so the paging buttons (and keyboard focus on them) stay put.
  const q = useQuery({ queryKey: ["my-orders", token, start], queryFn: () => myOrders(token, start, PAGE), placeholderData: keepPreviousData });
  if (q.error || !q.data) return <QueryState error={q.error} loading="Loading your orders…" />;
  if (q.data.total === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
        No orders yet.{" "}
        <Link href="/" className="font-semibold text-brand-700 hover:underline">
          Find something to buy
        </Link>
      </p>
    );
  }
  const { orders, total } = q.data;
  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-col divide-y divide-slate-200 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        {orders.map((o) => (
          <li key={o.order_id} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
            <div className="flex min-w-0 flex-col">
              <span className="font-semibold text-slate-900">
                {o.name} · {formatPackage(o.package_value, o.currency)}
              </span>
              <span className="text-slate-600">
                {new Date(o.created_at).toLocaleString()} · {formatUsdcDecimal(o.price_usdc)} · {o.status}
              </span>
            </div>
            <Link href={`/invoices/${o.invoice_id}`} className="font-semibold text-brand-700 hover:underline">
              {o.codes_available ? "See codes" : "See invoice"}
              <span className="sr-only"> for {o.name}</span>
            </Link>
          </li>
        ))}
      </ul>
      <nav aria-label="Pages" className="flex items-center justify-between text-sm">
        <button
          type="button"
          disabled={start === 0}
          onClick={() => setStart(Math.max(0, start - PAGE))}
          className="rounded-lg px-3 py-2 font-semibold text-brand-700 disabled:text-slate-400"
        >
          Newer
        </button>
        <span className="text-slate-700">
          {start + 1}-{Math.min(start + PAGE, total)} of {total}
        </span>
        <button
          type="button"
          disabled={start + PAGE >= total}
          onClick={() => setStart(start + PAGE)}
          className="rounded-lg px-3 py-2 font-semibold text-brand-700 disabled:text-slate-400"
        >
          Older
        </button>
      </nav>
    </div>
  );
}

function EsimsList({ token }: { token: string }) {
  const q = useQuery({ queryKey: ["my-esims", token], queryFn: () => myEsims(token) });
  if (q.error || !q.data) return <QueryState error={q.error} loading="Loading your eSIMs…" />;
  if (q.data.esims.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
        No eSIMs yet.{" "}
        <Link href="/search?kind=esim" className="font-semibold text-brand-700 hover:underline">
          Browse eSIMs
        </Link>
      </p>
    );
  }
  return (
    <ul className="grid gap-3 md:grid-cols-2">
      {q.data.esims.map((e) => (
        <li key={e.iccid} className="flex flex-col gap-2 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <h2 className="font-semibold text-slate-900">{e.name}</h2>
          <p className="text-sm text-slate-700">
            ICCID <code className="break-all">{e.iccid}</code>
          </p>
          <p className="text-sm font-semibold text-slate-900">Active bundles</p>
          {e.bundles.length === 0 ? (
            <p className="text-sm text-slate-700">None: top it up to use it again.</p>
          ) : (
            <ul className="text-sm text-slate-800">
              {e.bundles.map((b, i) => (
                <li key={i}>
                  {b.value}
                  {b.expires_at ? ` · until ${new Date(b.expires_at).toLocaleDateString()}` : ""}
                </li>
              ))}
            </ul>
          )}
          <div className="flex flex-wrap gap-3 text-sm">
            <Link href={`/products/${e.product_id}?iccid=${e.iccid}`} className="font-semibold text-brand-700 hover:underline">
              Top up this eSIM
              <span className="sr-only"> {e.iccid}</span>
            </Link>
            <Link href={`/invoices/${e.invoice_id}`} className="font-semibold text-brand-700 hover:underline">
              Install again (QR code)
              <span className="sr-only"> for {e.iccid}</span>
            </Link>
          </div>
        </li>
      ))}
    </ul>
  );
}

const PROMPT = "Connect your wallet and sign in to see what it bought.";

/** The connected wallet, and what the account page lists for it. */
function Account({ list }: { list: (token: string) => React.ReactNode }) {
  return (
    <SignedIn prompt={PROMPT}>
      {(token, wallet) => (
        <div className="flex flex-col gap-4">
          <ConnectWallet wallet={wallet} />
          {list(token)}
        </div>
      )}
    </SignedIn>
  );
}

export function AccountOrders() {
  return <Account list={(token) => <OrdersList token={token} />} />;
}

export function AccountEsims() {
  return <Account list={(token) => <EsimsList token={token} />} />;
}
