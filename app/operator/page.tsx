import type { Metadata } from "next";
import { cookies } from "next/headers";
import Link from "next/link";
import { formatEther } from "viem";
import { DataTable } from "@/components/dashboard/data-table";
import { OperatorSignInForm } from "@/components/operator/sign-in-form";
import { usdcToDecimal } from "@/lib/platform/money";
import { processAdminToken } from "@/lib/merchants/admin-token";
import { operatorOverview } from "@/lib/server/operator";
import { isOperatorSession, OPERATOR_COOKIE } from "@/lib/server/operator-session";
import { confirmCoinPriceAction, confirmFxRatesAction, operatorSignInAction, operatorSignOutAction } from "./actions";

export const metadata: Metadata = { title: "Operator", robots: { index: false, follow: false } };

const time = (d: Date | string | null) => (d ? new Date(d).toISOString().slice(0, 16).replace("T", " ") + " UTC" : "never");
const idClass = "font-mono text-xs break-all";
const sectionClass = "flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200";

/**
 * The operator's page: whether the shop is ready, the upstream supplier's balance and the orders held for it, the gas
 * wallets and the refunds due. Signed in with the admin token (a cookie of its own, scoped to /operator).
 */
export default async function OperatorPage() {
  const signedIn = await isOperatorSession((await cookies()).get(OPERATOR_COOKIE)?.value, processAdminToken());
  if (!signedIn) {
    return (
      <main id="main" className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center gap-6 px-4 py-10">
        <Link href="/" className="self-center text-lg font-bold tracking-tight text-slate-900">
          Storefront
        </Link>
        <section aria-labelledby="operator-sign-in" className={sectionClass}>
          <h1 id="operator-sign-in" className="text-2xl font-bold text-slate-900">
            Operator sign-in
          </h1>
          <p className="text-sm text-slate-700">The shop&apos;s health, its upstream supplier and the refunds due, for whoever runs it.</p>
          <OperatorSignInForm action={operatorSignInAction} />
        </section>
      </main>
    );
  }

  const { readiness, held, refundsDue, heldRates, heldPrices } = await operatorOverview();
  const upstream = readiness.upstream;
  return (
    <main id="main" className="mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">Operator</h1>
        <form action={operatorSignOutAction}>
          <button
            type="submit"
            className="rounded-lg px-3 py-2 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            Sign out
          </button>
        </form>
      </header>

      <section aria-labelledby="ready-heading" className={sectionClass}>
        <h2 id="ready-heading" className="text-lg font-semibold text-slate-900">
          {readiness.ready ? "Ready" : "Not ready"}
        </h2>
        {readiness.problems.length > 0 && (
          <ul className="list-disc pl-5 text-sm text-red-800">
            {readiness.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        {readiness.warnings.length > 0 ? (
          <ul aria-label="Warnings" className="list-disc pl-5 text-sm text-amber-900">
            {readiness.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">No warnings.</p>
        )}
      </section>

      {heldPrices.length > 0 && (
        <section aria-labelledby="prices-heading" className={sectionClass}>
          <h2 id="prices-heading" className="text-lg font-semibold text-slate-900">
            Coin prices held
          </h2>
          <p className="text-sm text-slate-700">
            The price feed moved these coins more than ETH_USD_MAX_MOVE_PERCENT allows: new invoices keep the applied price until it is stale. Confirm the new
            price if the move is real.
          </p>
          {heldPrices.map((h) => (
            <form key={h.coin} action={confirmCoinPriceAction} className="flex flex-wrap items-center gap-3 text-sm">
              <span>
                {h.coin}: {h.applied} USD applied, {h.held} USD fetched {time(h.heldAt)}
              </span>
              <input type="hidden" name="coin" value={h.coin} />
              <button
                type="submit"
                className="rounded-lg bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                Confirm {h.held} USD per {h.coin}
              </button>
            </form>
          ))}
        </section>
      )}

      {heldRates.length > 0 && (
        <section aria-labelledby="fx-heading" className={sectionClass}>
          <h2 id="fx-heading" className="text-lg font-semibold text-slate-900">
            Exchange rates held
          </h2>
          <p className="text-sm text-slate-700">
            The rate feed moved these currencies more than FX_MAX_MOVE_PERCENT allows: prices keep the rates applied before. Confirm the new rates if the move
            is real.
          </p>
          {heldRates.map((h) => (
            <div key={h.asOf} className="flex flex-col gap-2">
              <DataTable
                caption={`Rates of ${h.asOf} (fetched ${time(h.fetchedAt)}) against those of ${h.against}, in USD per unit`}
                showCaption
                rows={h.moves}
                rowKey={(m) => m.currency}
                columns={[
                  { header: "Currency", rowHeader: true, cell: (m) => m.currency },
                  { header: "Applied", cell: (m) => m.from },
                  { header: "Fetched", cell: (m) => m.to },
                  { header: "Move", cell: (m) => `${m.percent} %` },
                ]}
              />
              <form action={confirmFxRatesAction}>
                <input type="hidden" name="as_of" value={h.asOf} />
                <button
                  type="submit"
                  className="rounded-lg bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  Confirm the rates of {h.asOf}
                </button>
              </form>
            </div>
          ))}
        </section>
      )}

      <section aria-labelledby="upstream-heading" className={sectionClass}>
        <h2 id="upstream-heading" className="text-lg font-semibold text-slate-900">
          Upstream supplier
        </h2>
        {upstream ? (
          <>
            <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-slate-600">Shop</dt>
                <dd className="font-medium break-all text-slate-900">{upstream.origin}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Balance there</dt>
                <dd className="font-medium text-slate-900">
                  {upstream.balance_cents === null ? `unknown (${upstream.balance_error ?? "no answer"})` : `$${(upstream.balance_cents / 100).toFixed(2)}`}
                </dd>
              </div>
              <div>
                <dt className="text-slate-600">Orders held for its balance</dt>
                <dd className="font-medium text-slate-900">{upstream.held_orders}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Orders being bought</dt>
                <dd className="font-medium text-slate-900">{upstream.buying_orders}</dd>
              </div>
              <div>
                <dt className="text-slate-600">Catalog synced</dt>
                <dd className="font-medium text-slate-900">
                  {time(upstream.sync.last_complete)}
                  {upstream.sync.in_progress ? " (a pass is under way)" : ""}
                </dd>
              </div>
              {upstream.sync.last_error && (
                <div>
                  <dt className="text-slate-600">Last sync error</dt>
                  <dd className="font-medium text-red-800">{upstream.sync.last_error}</dd>
                </div>
              )}
            </dl>
            {held.length > 0 && (
              <DataTable
                caption="Held orders: top up the balance there before they are refunded."
                showCaption
                rows={held}
                rowKey={(h) => h.orderId}
                columns={[
                  { header: "Order", rowHeader: true, className: idClass, cell: (h) => h.orderId },
                  { header: "Held since", cell: (h) => time(h.heldSince) },
                  { header: "Refunded at", cell: (h) => time(h.refundAt) },
                  { header: "Reason", cell: (h) => h.lastError ?? "balance too low" },
                ]}
              />
            )}
          </>
        ) : (
          <p className="text-sm text-slate-700">None: the shop sells its own catalog (set UPSTREAM_API_URL to resell another shop).</p>
        )}
      </section>

      <section aria-labelledby="gas-heading" className={sectionClass}>
        <h2 id="gas-heading" className="text-lg font-semibold text-slate-900">
          Gas wallets
        </h2>
        {readiness.gas.length === 0 ? (
          <p className="text-sm text-slate-700">None read.</p>
        ) : (
          <DataTable
            caption="Balance of each wallet that pays the settlements' fees"
            rows={readiness.gas}
            rowKey={(g) => `${g.network} ${g.wallet}`}
            columns={[
              { header: "Network", rowHeader: true, className: idClass, cell: (g) => g.network },
              { header: "Wallet", className: idClass, cell: (g) => g.wallet },
              {
                header: "Balance",
                cell: (g) => (
                  <>
                    {g.unit === "wei" ? `${formatEther(BigInt(g.balance))} (native)` : `${Number(g.balance) / 1e9} SOL`}
                    {g.low && <span className="ml-2 font-semibold text-red-800">low</span>}
                  </>
                ),
              },
            ]}
          />
        )}
      </section>

      <section aria-labelledby="refunds-heading" className={sectionClass}>
        <h2 id="refunds-heading" className="text-lg font-semibold text-slate-900">
          Refunds due
        </h2>
        {refundsDue.length === 0 ? (
          <p className="text-sm text-slate-700">None.</p>
        ) : (
          <DataTable
            caption="Invoices whose failed orders are owed back"
            rows={refundsDue}
            rowKey={(r) => r.invoiceId}
            columns={[
              { header: "Invoice", rowHeader: true, className: idClass, cell: (r) => r.invoiceId },
              { header: "Network", className: idClass, cell: (r) => r.network ?? "balance" },
              { header: "USDC", cell: (r) => usdcToDecimal(r.amountUsdc) },
              { header: "Since", cell: (r) => time(r.since) },
              { header: "Last error", cell: (r) => r.lastError ?? "" },
            ]}
          />
        )}
        <p className="text-sm text-slate-700">
          Paid by hand: <code className="rounded bg-slate-100 px-1">npm run admin -- refunds mark-paid INVOICE_ID --tx TX</code>
        </p>
      </section>
    </main>
  );
}
