"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useId, useState } from "react";
import { NetworkPicker } from "@/components/checkout/network-picker";
import { faucetAmount, requestTestUsdc, topUpBalance } from "@/components/checkout/shop-api";
import { useAction } from "@/components/checkout/use-action";
import { BALANCES, payNetworks, useUsdcBalance } from "@/components/checkout/usdc-balance";
import { ActionMessages } from "@/components/ui/action-messages";
import { ConnectWallet } from "@/components/wallet/connect-wallet";
import { useShopWallet } from "@/components/wallet/use-shop-wallet";
import { useWalletSetup } from "@/components/wallet/wallet-providers";
import { formatUsdc } from "@/lib/catalog/pricing";
import { topupAmount } from "@/lib/merchants/topups/amount";
import { centsToDecimal, centsToUsdc } from "@/lib/platform/money";
import { inputClass, primaryButtonClass, secondaryButtonClass } from "./form-field";
import { formatUsd } from "./format";

/**
 * Tops up the merchant's balance in USDC from a browser wallet, through x402 (1 USDC per USD): choose an amount and
 * a network, connect, sign. The server credits the balance once the payment settles; the page then shows the new
 * balance and the ledger entry.
 */
export function BalanceTopup() {
  const id = useId();
  const setup = useWalletSetup();
  const wallet = useShopWallet();
  const router = useRouter();
  const queryClient = useQueryClient();
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: BALANCES }), [queryClient]);
  const { busy, error, run } = useAction<"topup" | "fund">(refresh);
  const [amount, setAmount] = useState("100");
  const [network, setNetwork] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  // Just topped up: the wallet holds that much less, which is no shortage to warn of (nothing new is asked of it) until
  // the shopper changes the amount or the network, or asks for test USDC.
  const [toppedUp, setToppedUp] = useState(false);

  const parsed = topupAmount.safeParse(amount);
  const cents = parsed.success ? parsed.data : undefined;
  const amountError = touched && !parsed.success ? parsed.error.issues[0]?.message : undefined;
  const networks = payNetworks(setup).filter((n) => !wallet || n.family === wallet.family);
  const chosen = networks.find((n) => n.network === network) ?? networks[0];
  const usdc = useUsdcBalance(wallet && chosen ? chosen : undefined, wallet?.address ?? "");
  const short = usdc !== undefined && cents !== undefined && usdc < centsToUsdc(cents);
  const warnShort = short && !toppedUp;

  const topUp = () =>
    run("topup", async () => {
      setTouched(true);
      setNotice(null);
      setToppedUp(false);
      if (!wallet || !chosen || cents === undefined) return;
      const scheme = await wallet.paymentScheme(chosen.network);
      const result = await topUpBalance({
        amount: centsToDecimal(cents),
        network: chosen.network,
        asset: chosen.asset,
        amountAtomic: centsToUsdc(cents),
        scheme,
      });
      setNotice(`${formatUsd(cents)} added to your balance (top-up ${result.topup_id}).`);
      setToppedUp(true);
      router.refresh();
    });
  const fund = () =>
    run("fund", async () => {
      setNotice(null);
      setToppedUp(false);
      if (!wallet || !chosen) return;
      setNotice(await requestTestUsdc(chosen, wallet.address, faucetAmount(cents !== undefined ? centsToDecimal(cents) : "100")));
    });

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <div>
        <h2 id={`${id}-heading`} className="text-lg font-bold text-slate-900">
          Top up with USDC
        </h2>
        <p className="text-sm text-slate-700">1 USDC adds 1 USD to your balance, credited as soon as the payment settles.</p>
      </div>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void topUp();
        }}
        className="flex flex-col gap-4"
      >
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${id}-amount`} className="text-sm font-semibold text-slate-900">
            Amount (USD)
          </label>
          <input
            id={`${id}-amount`}
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value);
              setToppedUp(false);
            }}
            onBlur={() => setTouched(true)}
            aria-invalid={amountError ? true : undefined}
            aria-describedby={`${id}-amount-hint`}
            className={`${inputClass} sm:max-w-48`}
          />
          <p id={`${id}-amount-hint`} className={`text-xs ${amountError ? "font-medium text-red-700" : "text-slate-600"}`}>
            {amountError ?? "From 1.00 to 10,000.00 USD."}
          </p>
        </div>
        <ConnectWallet wallet={wallet} />
        {wallet && (
          <>
            <NetworkPicker
              networks={networks}
              chosen={chosen}
              onChoose={(n) => {
                setNetwork(n);
                setToppedUp(false);
              }}
            />
            {usdc !== undefined && chosen && (
              <p id={`${id}-usdc`} className={`text-sm ${warnShort ? "font-medium text-red-700" : "text-slate-700"}`}>
                {warnShort
                  ? `Not enough USDC on ${chosen.name}: this wallet holds ${formatUsdc(usdc)}.`
                  : `This wallet holds ${formatUsdc(usdc)} on ${chosen.name}.`}
              </p>
            )}
            <div className="flex flex-col gap-2 sm:flex-row">
              <button
                type="submit"
                disabled={busy !== null || !chosen || short}
                aria-describedby={usdc !== undefined ? `${id}-usdc` : undefined}
                className={primaryButtonClass}
              >
                {busy === "topup" ? "Confirm in your wallet…" : cents !== undefined ? `Top up ${formatUsd(cents)}` : "Top up"}
              </button>
              {setup.mode === "devnet" && (
                <button type="button" onClick={() => void fund()} disabled={busy !== null || !chosen} className={secondaryButtonClass}>
                  {busy === "fund" ? "Minting…" : "Get test USDC"}
                </button>
              )}
            </div>
          </>
        )}
      </form>
      <ActionMessages notice={notice} error={error} />
    </section>
  );
}
