"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { ConnectWallet } from "@/components/wallet/connect-wallet";
import { useWalletState } from "@/components/wallet/use-shop-wallet";
import { ActionMessages } from "@/components/ui/action-messages";
import { useWalletSetup } from "@/components/wallet/wallet-providers";
import { formatUsd, formatUsdc, formatUsdcDecimal } from "@/lib/catalog/pricing";
import { explainError } from "./explain-error";
import { faucetAmount, payInvoice, payStatus, requestTestEther, requestTestUsdc, ShopApiError } from "./shop-api";
import { AddressPay } from "./address-pay";
import { formatCountdown, useSecondsLeft } from "./use-countdown";
import { useAction } from "./use-action";
import { addressOnlyNetworks, BALANCES, payNetworks, useUsdcBalance } from "./usdc-balance";

/**
 * Pays a merchant's invoice on the one network the merchant chose: a USDC invoice from the shopper's wallet in one
 * signature (x402), or by a plain transfer to the invoice's own address from any wallet or exchange; an ether invoice by
 * that transfer only.
 */
export function MerchantPay({ id }: { id: string }) {
  const setup = useWalletSetup();
  const { families } = useWalletState();
  const queryClient = useQueryClient();
  const refresh = useCallback(
    () => Promise.all([queryClient.invalidateQueries({ queryKey: ["pay", id] }), queryClient.invalidateQueries({ queryKey: BALANCES })]),
    [queryClient, id],
  );
  const { busy, error, run } = useAction<"pay" | "fund">(refresh);
  const [notice, setNotice] = useState<string | null>(null);
  const query = useQuery({
    queryKey: ["pay", id],
    queryFn: () => payStatus(id),
    refetchInterval: (q) => (q.state.data && q.state.data.payment_status !== "unpaid" && q.state.data.status !== "processing" ? false : 3000),
    retry: (n, err) => !(err instanceof ShopApiError && err.status === 404) && n < 2,
  });
  const inv = query.data;
  const net = inv ? [...payNetworks(setup), ...addressOnlyNetworks(setup)].find((n) => n.network === inv.network) : undefined;
  // The invoice is paid on one network: only a wallet of its family can pay it, whichever else is connected.
  const wallet = net ? (families[net.family]?.wallet ?? null) : null;
  const otherWallet = !wallet ? Object.values(families).find((f) => f?.wallet)?.wallet : undefined;
  const familyOk = Boolean(wallet && net);
  const balance = useUsdcBalance(familyOk && inv?.payment_status === "unpaid" && inv.x402 ? net : undefined, wallet?.address ?? "");
  const secondsLeft = useSecondsLeft(inv?.payment_status === "unpaid" ? inv.expires_at : undefined);

  if (query.error) {
    return (
      <p role="alert" className="rounded-2xl bg-white p-5 font-medium text-slate-900 shadow-sm ring-1 ring-slate-200">
        {query.error instanceof ShopApiError && query.error.status === 404 ? "No invoice to pay in USDC or ether has this number." : explainError(query.error)}
      </p>
    );
  }
  if (!inv)
    return (
      <p role="status" className="text-slate-700">
        Loading the invoice…
      </p>
    );
  if (!net) {
    return (
      <p role="alert" className="rounded-2xl bg-white p-5 font-medium text-slate-900 shadow-sm ring-1 ring-slate-200">
        This invoice is paid on {inv.network_name}, a network this shop does not offer in the browser.
      </p>
    );
  }

  const amount = BigInt(inv.amount_usdc_atomic);
  const short = balance !== undefined && balance < amount;
  const pay = () =>
    run("pay", async () => {
      setNotice(null);
      if (!wallet) return;
      const scheme = await wallet.paymentScheme(net.network);
      await payInvoice({ invoiceId: id, network: net.network, asset: net.asset, amountAtomic: amount, scheme });
      setNotice("Payment accepted.");
    });
  const fund = () =>
    run("fund", async () => {
      if (!wallet) return;
      setNotice(null);
      setNotice(await requestTestUsdc(net, wallet.address, faucetAmount(inv.amount_usdc)));
    });

  const byAddress = inv.by_address;
  const unpaid = inv.payment_status === "unpaid";
  const addressPay = byAddress && (
    <AddressPay
      payment={byAddress}
      networkName={inv.network_name}
      network={inv.network}
      unpaid={unpaid && secondsLeft !== 0}
      wallet={wallet}
      alternative={inv.x402}
      onSent={refresh}
      // (A USDC invoice's faucet button is the x402 section's, above.)
      faucet={setup.mode === "devnet" && wallet && byAddress.coin === "ETH" ? () => requestTestEther(net, wallet.address, "1") : undefined}
    />
  );

  return (
    <section aria-labelledby="pay-summary" className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <h2 id="pay-summary" className="text-3xl font-bold text-slate-900">
        {inv.coin === "ETH" && byAddress ? <span className="break-all">{byAddress.amount} ETH</span> : formatUsdcDecimal(inv.amount_usdc)}{" "}
        <span className="block text-base font-medium text-slate-700">
          {inv.coin === "ETH" && byAddress ? `${formatUsd(BigInt(inv.amount_usdc_atomic))} at ${byAddress.exchange_rate} USD per ether, ` : ""}on{" "}
          {inv.network_name}
        </span>
      </h2>
      {inv.gift_card_usdc !== undefined && (
        <p className="text-sm text-slate-700">A gift card of the shop paid {formatUsdcDecimal(inv.gift_card_usdc)} of this invoice.</p>
      )}
      {inv.payment_status === "unpaid" ? (
        <>
          {secondsLeft !== null && (
            <p role="timer" aria-live="off" className="text-sm text-slate-700">
              Payable for <span className="font-semibold text-slate-900">{formatCountdown(secondsLeft)}</span>
            </p>
          )}
          {otherWallet && (
            <p className="text-sm font-medium text-slate-800">
              This invoice is paid on {inv.network_name}: your {otherWallet.family === "solana" ? "Solana" : "EVM"} wallet cannot pay it. Connect{" "}
              {net.family === "solana" ? "a Solana" : "an EVM"} wallet.
            </p>
          )}
          <ConnectWallet wallet={wallet} families={[net.family]} />
          {familyOk && inv.x402 && (
            <>
              {balance !== undefined && (
                <p id="pay-balance" className={`text-sm ${short ? "font-medium text-red-700" : "text-slate-700"}`}>
                  {short
                    ? `Not enough USDC on ${net.name}: this wallet holds ${formatUsdc(balance)}.`
                    : `This wallet holds ${formatUsdc(balance)} on ${net.name}.`}
                </p>
              )}
              <button
                type="button"
                onClick={pay}
                disabled={busy !== null || short || secondsLeft === 0}
                aria-describedby={balance !== undefined ? "pay-balance" : undefined}
                className="h-12 rounded-xl bg-brand-600 px-6 text-lg font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-400"
              >
                {busy === "pay" ? "Confirm in your wallet…" : `Pay ${formatUsdcDecimal(inv.amount_usdc)}`}
              </button>
              {setup.mode === "devnet" && (
                <button
                  type="button"
                  onClick={fund}
                  disabled={busy !== null}
                  className="h-11 rounded-xl border border-slate-300 bg-white px-4 font-semibold text-slate-900 hover:bg-slate-50 disabled:opacity-60"
                >
                  {busy === "fund" ? "Minting…" : "Get test USDC"}
                </button>
              )}
            </>
          )}
          {addressPay}
        </>
      ) : inv.payment_status === "expired" ? (
        <p className="text-slate-800">This invoice expired before it was paid; nothing was charged. Ask the merchant for a new one.</p>
      ) : inv.payment_status === "denied" || inv.payment_status === "payment_error" ? (
        <p role="alert" className="font-medium text-red-700">
          This invoice cannot be paid: its payment was refused. Ask the merchant for a new one.
        </p>
      ) : (
        <div role="status" className="flex flex-col gap-1 text-slate-800">
          <p className="text-lg font-semibold text-emerald-800">Paid. Thank you!</p>
          <p>The merchant receives the order{inv.status === "complete" ? " and it has been delivered" : " as soon as it is delivered"}.</p>
          {inv.transaction && (
            <p className="text-sm break-all text-slate-700">
              Transaction: <code>{inv.transaction}</code>
            </p>
          )}
        </div>
      )}
      <ActionMessages notice={notice} error={error} />
    </section>
  );
}
