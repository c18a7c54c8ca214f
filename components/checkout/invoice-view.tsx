"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useState } from "react";
import { clearCartPaidBy, rememberCartInvoice, useCart } from "@/components/cart/cart-store";
import { ConnectWallet } from "@/components/wallet/connect-wallet";
import { SignedIn } from "@/components/wallet/signed-in";
import type { ShopWallet } from "@/components/wallet/use-shop-wallet";
import { ActionMessages } from "@/components/ui/action-messages";
import { useWalletSetup } from "@/components/wallet/wallet-providers";
import { cartItems } from "./checkout-panel";
import { parseMinorUnits, USDC_DECIMALS } from "@/lib/platform/money";
import { formatPackage, formatUsdc, formatUsdcDecimal } from "@/lib/catalog/pricing";
import { explainError } from "./explain-error";
import { NetworkPicker } from "./network-picker";
import { RedemptionCard } from "./redemption-card";
import { AddressPay } from "./address-pay";
import { createInvoice, faucetAmount, invoiceStatus, payInvoice, requestTestEther, requestTestUsdc, ShopApiError, type InvoiceStatus } from "./shop-api";
import { formatCountdown, useSecondsLeft } from "./use-countdown";
import { useAction } from "./use-action";
import { BALANCES, payNetworks, useUsdcBalance } from "./usdc-balance";

const FINAL = new Set(["complete", "expired", "denied", "payment_error"]);

/** An order's state in the shopper's words. */
const ORDER_STATUS: Record<string, string> = {
  created: "awaiting payment",
  processing: "delivering",
  delivered: "delivered",
  failed: "not delivered",
  refunded: "refunded",
};

const PROGRESS = [
  { key: "unpaid", label: "Awaiting payment" },
  { key: "paid", label: "Paid" },
  { key: "fulfilling", label: "Delivering" },
  { key: "complete", label: "Done" },
] as const;

function Progress({ status }: { status: InvoiceStatus["status"] }) {
  const at = PROGRESS.findIndex((p) => p.key === status);
  return (
    <ol className="grid grid-cols-4 gap-1 text-center text-xs font-medium sm:text-sm" aria-label="Progress">
      {PROGRESS.map((p, i) => (
        <li
          key={p.key}
          aria-current={i === at ? "step" : undefined}
          className={`rounded-lg px-1 py-2 ${i < at || status === "complete" ? "bg-emerald-100 text-emerald-900" : i === at ? "bg-brand-100 text-brand-900 ring-2 ring-brand-600" : "bg-slate-100 text-slate-600"}`}
        >
          {p.label}
        </li>
      ))}
    </ol>
  );
}

/** An invoice: pay it (network choice, wallet signature), then watch it until the codes arrive. */
export function InvoiceView({ id }: { id: string }) {
  return (
    <SignedIn prompt="Connect the wallet that created this invoice and sign in to see it.">
      {(token, wallet) => <Invoice id={id} token={token} wallet={wallet} />}
    </SignedIn>
  );
}

function Invoice({ id, token, wallet }: { id: string; token: string; wallet: ShopWallet }) {
  const setup = useWalletSetup();
  const queryClient = useQueryClient();
  const router = useRouter();
  const lines = useCart();
  const [network, setNetwork] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // After any action, read the invoice again: a failed payment may still have moved it (or it expired meanwhile).
  const refresh = useCallback(
    () => Promise.all([queryClient.invalidateQueries({ queryKey: ["invoice", id] }), queryClient.invalidateQueries({ queryKey: BALANCES })]),
    [queryClient, id],
  );
  const { busy, error, run } = useAction<"pay" | "fund" | "recreate">(refresh);

  const query = useQuery({
    queryKey: ["invoice", id, token],
    queryFn: () => invoiceStatus(token, id),
    refetchInterval: (q) => (q.state.data && FINAL.has(q.state.data.status) ? false : 2000),
    retry: (count, err) => !(err instanceof ShopApiError && [403, 404].includes(err.status)) && count < 2,
  });
  const invoice = query.data;
  // Paid by a transfer to the invoice's own address: its quote ends at `expires_time`, and x402 pays it on its
  // network only, when it is USDC there (ether and USDC on Ethereum only by the transfer).
  const byAddress = invoice?.payment && "address" in invoice.payment ? invoice.payment : undefined;
  const x402Too = !byAddress || (byAddress.coin === "USDC" && byAddress.method !== "usdc_erc20");
  const secondsLeft = useSecondsLeft(invoice?.status === "unpaid" ? (byAddress?.expires_time ?? invoice.expires_at) : undefined);

  const networks = payNetworks(setup).filter((n) => n.family === wallet.family && x402Too && (!byAddress || n.network === byAddress.network));
  const chosen = networks.find((n) => n.network === network) ?? networks[0];
  const balance = useUsdcBalance(invoice?.status === "unpaid" ? chosen : undefined, wallet.address);
  // What the wallet pays: the locked price less what a gift card paid of it.
  const due = invoice ? parseMinorUnits(invoice.amount_due_usdc, USDC_DECIMALS) : undefined;
  const shortOfUsdc = balance !== undefined && due !== undefined && balance < due;

  const pay = () =>
    run("pay", async () => {
      setNotice(null);
      if (!invoice || !chosen) return;
      const scheme = await wallet.paymentScheme(chosen.network);
      await payInvoice({ invoiceId: id, network: chosen.network, asset: chosen.asset, amountAtomic: due!, scheme });
      clearCartPaidBy(id);
    });

  const fund = () =>
    run("fund", async () => {
      setNotice(null);
      if (!invoice || !chosen) return;
      setNotice(await requestTestUsdc(chosen, wallet.address, faucetAmount(invoice.amount_due_usdc)));
    });

  const recreate = () =>
    run("recreate", async () => {
      // The same way of paying as before (a transfer's method and refund address), at a new price.
      const next = await createInvoice(
        token,
        cartItems(lines),
        undefined,
        byAddress ? { payment_method: byAddress.method, ...(byAddress.refund_address ? { refund_address: byAddress.refund_address } : {}) } : undefined,
      );
      rememberCartInvoice(next.invoice_id);
      router.push(`/invoices/${next.invoice_id}`);
    });

  if (query.error) {
    const err = query.error;
    const text =
      err instanceof ShopApiError && err.status === 403
        ? "This invoice belongs to another wallet: only the wallet that created it can see it."
        : err instanceof ShopApiError && err.status === 404
          ? "No invoice has this number."
          : explainError(err);
    return (
      <div className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <p role="alert" className="font-medium text-slate-900">
          {text}
        </p>
        <ConnectWallet wallet={wallet} />
      </div>
    );
  }
  if (!invoice)
    return (
      <p className="text-slate-700" role="status">
        Loading the invoice…
      </p>
    );

  const partial = invoice.orders.filter((o) => o.status === "failed" || o.status === "refunded");
  const card = invoice.gift_card_usdc;
  // A card that paid it all is the invoice's payment (network `gift_card`): there is no transaction to show.
  const paidByCard = invoice.payment?.network === "gift_card" || (card !== undefined && invoice.amount_due_usdc === "0");
  return (
    <div className="flex flex-col gap-5">
      <Progress status={invoice.status} />
      <div className="grid gap-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section aria-labelledby="items-heading" className="flex h-fit flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
          <h2 id="items-heading" className="text-lg font-bold text-slate-900">
            Items
          </h2>
          <ul className="flex flex-col divide-y divide-slate-200">
            {invoice.orders.map((o) => (
              <li key={o.order_id} className="flex justify-between gap-3 py-2 text-sm">
                <span className="text-slate-900">
                  {o.name} · {formatPackage(o.package_value, o.currency)}
                </span>
                <span className="shrink-0 text-slate-700">
                  {formatUsdcDecimal(o.price_usdc)} · <span className="font-medium">{ORDER_STATUS[o.status] ?? o.status}</span>
                </span>
              </li>
            ))}
          </ul>
          {card === undefined ? (
            <p className="flex justify-between text-lg font-bold text-slate-900">
              <span>Total</span>
              <span>{formatUsdcDecimal(invoice.price_usdc)}</span>
            </p>
          ) : (
            <dl className="flex flex-col gap-1 border-t border-slate-200 pt-2">
              <div className="flex justify-between text-sm text-slate-800">
                <dt>Price</dt>
                <dd>{formatUsdcDecimal(invoice.price_usdc)}</dd>
              </div>
              <div className="flex justify-between text-sm text-emerald-800">
                <dt>Paid by your gift card</dt>
                <dd>−{formatUsdcDecimal(card)}</dd>
              </div>
              <div className="flex justify-between text-lg font-bold text-slate-900">
                <dt>Your wallet pays</dt>
                <dd>{formatUsdcDecimal(invoice.amount_due_usdc)}</dd>
              </div>
            </dl>
          )}
        </section>

        <section aria-labelledby="pay-heading" className="flex h-fit flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
          <h2 id="pay-heading" className="text-lg font-bold text-slate-900">
            {invoice.status === "unpaid" ? "Pay" : "Payment"}
          </h2>
          <ConnectWallet wallet={wallet} />
          {invoice.status === "unpaid" && secondsLeft !== null && (
            <>
              <p className="text-sm text-slate-700" role="timer" aria-live="off">
                Price locked for <span className="font-semibold text-slate-900">{formatCountdown(secondsLeft)}</span>
              </p>
              {networks.length > 0 && <NetworkPicker networks={networks} chosen={chosen} onChoose={setNetwork} />}
              {balance !== undefined && chosen && (
                <p className={`text-sm ${shortOfUsdc ? "font-medium text-red-700" : "text-slate-700"}`} id="balance-note">
                  {shortOfUsdc
                    ? `Not enough USDC on ${chosen.name}: this wallet holds ${formatUsdc(balance)} and the invoice needs ${formatUsdcDecimal(invoice.amount_due_usdc)}. ${setup.mode === "devnet" ? "Get test USDC below" : "Add USDC to this wallet"}, or pick another network.`
                    : `This wallet holds ${formatUsdc(balance)} on ${chosen.name}.`}
                </p>
              )}
              {chosen && (
                <button
                  type="button"
                  onClick={pay}
                  aria-describedby={balance !== undefined ? "balance-note" : undefined}
                  disabled={busy !== null || secondsLeft === 0 || shortOfUsdc}
                  className="h-12 rounded-xl bg-brand-600 px-6 text-lg font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-400"
                >
                  {busy === "pay" ? "Confirm in your wallet…" : `Pay ${formatUsdcDecimal(invoice.amount_due_usdc)}`}
                </button>
              )}
              {setup.mode === "devnet" && chosen && (
                <button
                  type="button"
                  onClick={fund}
                  disabled={busy !== null || !chosen}
                  className="h-11 rounded-xl border border-slate-300 bg-white px-4 font-semibold text-slate-900 hover:bg-slate-50 disabled:opacity-60"
                >
                  {busy === "fund" ? "Minting…" : "Get test USDC"}
                </button>
              )}
            </>
          )}
          {(invoice.status === "expired" || invoice.status === "payment_error") && (
            <div className="flex flex-col gap-2">
              <p className="text-slate-800">
                {invoice.status === "expired"
                  ? "This invoice expired before it was paid; nothing was charged."
                  : "Your payment could not be settled and this invoice can no longer be paid; nothing was charged."}
              </p>
              {lines.length > 0 ? (
                <button
                  type="button"
                  onClick={recreate}
                  disabled={busy !== null}
                  className="h-11 w-fit rounded-xl bg-brand-600 px-4 font-semibold text-white hover:bg-brand-700"
                >
                  {busy === "recreate" ? "Creating…" : "New invoice from my cart"}
                </button>
              ) : (
                <Link href="/" className="font-semibold text-brand-700 hover:underline">
                  Back to the shop
                </Link>
              )}
            </div>
          )}
          {byAddress && (
            <AddressPay
              payment={byAddress}
              networkName={byAddress.network_name}
              network={byAddress.network}
              unpaid={invoice.status === "unpaid" && secondsLeft !== 0}
              wallet={wallet}
              alternative={networks.length > 0}
              onSent={refresh}
              extraRule={
                byAddress.refund_address
                  ? `it is refunded, in the coin you sent, to your refund address (less than a dollar's worth is not worth a transfer's fee and is kept).`
                  : "it waits for the shop's staff to refund it, since no refund address was given."
              }
              extraGoes={
                byAddress.refund_address
                  ? `is refunded to your refund address ${byAddress.refund_address}.`
                  : "waits for the shop's staff to refund it (no refund address was given)."
              }
              faucet={
                // (USDC that x402 pays has the faucet of the section above.)
                setup.mode === "devnet" && wallet.family === "eip155" && (byAddress.coin === "ETH" || networks.length === 0)
                  ? () =>
                      byAddress.coin === "ETH"
                        ? requestTestEther({ network: byAddress.network, name: byAddress.network_name }, wallet.address, "1")
                        : requestTestUsdc({ network: byAddress.network, name: byAddress.network_name }, wallet.address, faucetAmount(invoice.amount_due_usdc))
                  : undefined
              }
            />
          )}
          {invoice.payment?.transaction && !paidByCard && (
            <p className="text-sm break-all text-slate-700">
              Paid{invoice.payment.network ? ` on ${networkName(setup, invoice.payment.network)}` : ""}: <code>{invoice.payment.transaction}</code>
            </p>
          )}
          {paidByCard && <p className="text-sm text-slate-700">Paid in full by your gift card: nothing to pay from your wallet.</p>}
          {(invoice.status === "paid" || invoice.status === "fulfilling") && (
            <p role="status" className="text-slate-800">
              {paidByCard ? "Your gift card paid it all." : "Payment received."} Your codes are on their way…
            </p>
          )}
          <ActionMessages notice={notice} error={error} />
        </section>
      </div>

      {invoice.status === "complete" && (
        <section aria-labelledby="codes-heading" className="flex flex-col gap-3">
          <h2 id="codes-heading" className="text-xl font-bold text-slate-900">
            Your codes
          </h2>
          {partial.length > 0 && (
            <div role="note" className="rounded-xl bg-amber-50 p-4 text-sm text-amber-950 ring-1 ring-amber-200">
              {partial.length === invoice.orders.length ? "No item could be delivered." : "Some items could not be delivered."}{" "}
              {partial.map((o) => (
                <span key={o.order_id} className="block">
                  {o.name} · {formatPackage(o.package_value, o.currency)}:{" "}
                  {o.refund?.transaction
                    ? `${formatUsdcDecimal(o.refund.amount_usdc)} refunded to your ${byAddress ? "refund address" : "wallet"} (${o.refund.transaction.slice(0, 12)}…).`
                    : byAddress
                      ? byAddress.refund_address
                        ? `a refund of its price in USDC is on its way to your refund address ${byAddress.refund_address}.`
                        : "a refund of its price waits for the shop's staff (no refund address was given)."
                      : paidByCard
                        ? "its price goes back to your gift card."
                        : card !== undefined
                          ? "its price goes back to your gift card first, and any rest to your wallet."
                          : "a refund of its price is on its way to your wallet."}
                </span>
              ))}
            </div>
          )}
          <div className="grid gap-3 md:grid-cols-2">
            {(invoice.redemption_info ?? []).map((r) => {
              const o = invoice.orders.find((order) => order.order_id === r.order_id);
              return (
                <RedemptionCard
                  key={r.order_id}
                  redemption={r}
                  title={o ? `${o.name} · ${formatPackage(o.package_value, o.currency)}` : `${r.product_id} · ${r.package_value}`}
                />
              );
            })}
          </div>
        </section>
      )}
    </div>
  );
}

function networkName(setup: ReturnType<typeof useWalletSetup>, network: string): string {
  return payNetworks(setup).find((n) => n.network === network)?.name ?? network;
}
