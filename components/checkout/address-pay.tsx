"use client";

import { useState } from "react";
import { encodeFunctionData, erc20Abi, type Address } from "viem";
import { CopyField } from "@/components/ui/copy-field";
import { QrCode } from "@/components/ui/qr-code";
import type { ShopWallet } from "@/components/wallet/use-shop-wallet";
import { ActionMessages } from "@/components/ui/action-messages";
import { BURNER_WALLET_NAME } from "@/components/wallet/burner/burner-wallet-info";
import type { AddressPayment } from "./shop-api";
import { useAction } from "./use-action";

/** The button that sends the transfer from the connected wallet (a plain one, or Solana Pay). */
const SEND_BUTTON =
  "h-12 rounded-xl bg-brand-600 px-6 text-lg font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-400";

/** The payment's progress in words: nothing yet, seen and confirming, part of it received, all of it. */
export function addressPaymentProgress(p: AddressPayment): string {
  const seenMore = p.seen !== p.received;
  if (seenMore) return `Payment seen on chain: ${p.confirmations} of ${p.confirmations_required} confirmations…`;
  if (p.received === "0") return "Waiting for your payment…";
  if (p.missing !== "0") return `Received ${p.received} ${p.coin}: ${p.missing} ${p.coin} still missing.`;
  return `Received ${p.received} ${p.coin}.`;
}

/**
 * Paying an invoice by a plain transfer to its own address, from any wallet or exchange: the amount in the coin, the
 * address and the payment URI as a QR code with copy buttons, the status as the shop counts it (seen, confirming k of
 * n, what is missing, what went on to the merchant's balance), and, with an EVM wallet connected, a button that sends
 * the transfer from it (on the devnet, the burner wallet, with test ether or USDC from the faucet).
 */
export function AddressPay({
  payment,
  networkName,
  network,
  unpaid,
  wallet,
  alternative,
  onSent,
  faucet,
  extraGoes = "went to the merchant's balance.",
  extraRule = "it is credited to the merchant's balance at the invoice's rate.",
}: {
  payment: AddressPayment;
  networkName: string;
  network: string;
  unpaid: boolean;
  wallet: ShopWallet | null;
  /** Whether the invoice can also be paid through x402 (then this is the other way). */
  alternative: boolean;
  onSent: () => Promise<unknown>;
  /** Devnet: gets the wallet test money of this coin; what was sent, in words. */
  faucet?: () => Promise<string>;
  /** What becomes of what arrives beyond the price (or after the end), in words that end the sentence. */
  extraGoes?: string;
  /** The rule for what arrives beyond the price, late or short, as a sentence (the payer reads it before sending). */
  extraRule?: string;
}) {
  const [notice, setNotice] = useState<string | null>(null);
  const { busy, error, run } = useAction<"send" | "fund">(onSent);
  const toSend = BigInt(remainingAtomic(payment));
  const canSend = unpaid && wallet?.family === "eip155" && wallet.sendTransfer !== undefined && toSend > 0n;
  const burner = wallet?.name === BURNER_WALLET_NAME;
  const send = () =>
    run("send", async () => {
      setNotice(null);
      if (!wallet?.sendTransfer) return;
      const to = payment.address as Address;
      const hash =
        payment.coin === "ETH"
          ? await wallet.sendTransfer(network, { to, value: toSend })
          : await wallet.sendTransfer(network, {
              to: payment.contract_address as Address,
              data: encodeFunctionData({ abi: erc20Abi, functionName: "transfer", args: [to, toSend] }),
            });
      setNotice(`Sent: transaction ${hash}. It counts once it has ${payment.confirmations_required} confirmations.`);
    });
  const fund = () =>
    run("fund", async () => {
      setNotice(null);
      if (faucet) setNotice(await faucet());
    });

  if (payment.reference)
    return (
      <SolanaPay
        payment={{ ...payment, reference: payment.reference }}
        networkName={networkName}
        unpaid={unpaid}
        alternative={alternative}
        extraGoes={extraGoes}
        extraRule={extraRule}
        wallet={wallet}
        onSent={onSent}
      />
    );

  return (
    <section aria-labelledby="address-pay-heading" className="flex flex-col gap-3 border-t border-slate-200 pt-4">
      <h3 id="address-pay-heading" className="text-lg font-semibold text-slate-900">
        {alternative ? `Or send ${payment.coin} from any wallet or exchange` : `Send ${payment.coin} from any wallet or exchange`}
      </h3>
      <p className="text-sm text-slate-700">
        Send exactly{" "}
        <span className="font-semibold text-slate-900">
          {payment.amount} {payment.coin}
        </span>{" "}
        on <span className="font-semibold">{networkName}</span> to this invoice&apos;s own address
        {payment.coin === "USDC" ? " (the USDC token below, no other)" : ""}. A transfer on another network is not seen.
      </p>
      {unpaid && (
        <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
          <QrCode
            value={payment.payment_uri}
            label={`QR code of the payment: ${payment.amount} ${payment.coin} on ${networkName} to ${payment.address}`}
            size={180}
          />
          <div className="flex w-full min-w-0 flex-col gap-2">
            <CopyField label="Address" value={payment.address} />
            <CopyField label={`Amount (${payment.coin})`} value={payment.amount} />
          </div>
        </div>
      )}
      {unpaid && <CopyField label="Payment link (EIP-681)" value={payment.payment_uri} />}
      {payment.contract_address && unpaid && <CopyField label="USDC token contract" value={payment.contract_address} />}
      <p role="status" aria-live="polite" className="text-sm font-medium text-slate-900">
        {addressPaymentProgress(payment)}
      </p>
      {payment.credited !== "0" && (
        <p className="text-sm text-slate-700">
          {payment.credited} {payment.coin} beyond what the invoice asked (or after it ended) {extraGoes}
        </p>
      )}
      <AmountRules coin={payment.coin} extraRule={extraRule} />
      {canSend && (
        <button type="button" onClick={send} disabled={busy !== null} className={SEND_BUTTON}>
          {busy === "send" ? "Confirm in your wallet…" : burner ? `Pay with the burner wallet` : `Send ${payment.missing} ${payment.coin} from this wallet`}
        </button>
      )}
      {canSend && faucet && (
        <button
          type="button"
          onClick={fund}
          disabled={busy !== null}
          className="h-11 rounded-xl border border-slate-300 bg-white px-4 font-semibold text-slate-900 hover:bg-slate-50 disabled:opacity-60"
        >
          {busy === "fund" ? "Sending…" : `Get test ${payment.coin === "ETH" ? "ether" : "USDC"}`}
        </button>
      )}
      <ActionMessages notice={notice} error={error} />
    </section>
  );
}

/**
 * USDC on Solana by Solana Pay: the payment request as a QR code (a Solana Pay wallet fills in the shop's wallet, the
 * amount and the invoice's reference), the same by hand, and the status. A transfer without the reference is not tied
 * to the invoice: said plainly, since an exchange cannot add it.
 */
function SolanaPay({
  payment,
  networkName,
  unpaid,
  alternative,
  extraGoes,
  extraRule,
  wallet,
  onSent,
}: {
  payment: AddressPayment & { reference: string };
  networkName: string;
  unpaid: boolean;
  alternative: boolean;
  extraGoes: string;
  extraRule: string;
  wallet: ShopWallet | null;
  onSent: () => Promise<unknown>;
}) {
  const [notice, setNotice] = useState<string | null>(null);
  const { busy, error, run } = useAction<"send">(onSent);
  const toSend = BigInt(remainingAtomic(payment));
  const canSend = unpaid && wallet?.family === "solana" && wallet.sendSolanaPay !== undefined && payment.contract_address !== undefined && toSend > 0n;
  const send = () =>
    run("send", async () => {
      setNotice(null);
      if (!wallet?.sendSolanaPay || !payment.contract_address) return;
      const signature = await wallet.sendSolanaPay({
        recipient: payment.address,
        mint: payment.contract_address,
        decimals: 6,
        amount: toSend,
        reference: payment.reference,
      });
      setNotice(`Sent: transaction ${signature}. It counts once it is confirmed.`);
    });
  return (
    <section aria-labelledby="solana-pay-heading" className="flex flex-col gap-3 border-t border-slate-200 pt-4">
      <h3 id="solana-pay-heading" className="text-lg font-semibold text-slate-900">
        {alternative ? "Or pay with a Solana Pay wallet" : "Pay with a Solana Pay wallet"}
      </h3>
      <p className="text-sm text-slate-700">
        Scan the code with a wallet that supports Solana Pay: it sends <span className="font-semibold text-slate-900">{payment.amount} USDC</span> on{" "}
        <span className="font-semibold">{networkName}</span> to the shop with this invoice&apos;s reference. A transfer without the reference (from an exchange,
        say) cannot be tied to this invoice.
      </p>
      {unpaid && (
        <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-start">
          <QrCode value={payment.payment_uri} label={`QR code of the payment: ${payment.amount} USDC on ${networkName} by Solana Pay`} size={180} />
          <div className="flex w-full min-w-0 flex-col gap-2">
            <CopyField label="Recipient" value={payment.address} />
            <CopyField label="Amount (USDC)" value={payment.amount} />
            <CopyField label="Reference" value={payment.reference} />
          </div>
        </div>
      )}
      {unpaid && <CopyField label="Payment link (Solana Pay)" value={payment.payment_uri} />}
      <p role="status" aria-live="polite" className="text-sm font-medium text-slate-900">
        {addressPaymentProgress(payment)}
      </p>
      {payment.credited !== "0" && (
        <p className="text-sm text-slate-700">
          {payment.credited} USDC beyond what the invoice asked (or after it ended) {extraGoes}
        </p>
      )}
      <AmountRules coin="USDC" extraRule={extraRule} />
      {canSend && (
        <button type="button" onClick={send} disabled={busy !== null} className={SEND_BUTTON}>
          {busy === "send"
            ? "Confirm in your wallet…"
            : wallet?.name === BURNER_WALLET_NAME
              ? "Pay with the burner wallet by Solana Pay"
              : `Send ${payment.missing} USDC from this wallet by Solana Pay`}
        </button>
      )}
      <ActionMessages notice={notice} error={error} />
    </section>
  );
}

/**
 * The amount rules, told where the payer sends (docs/merchant-api.md "Paying by address"): transfers add up; more
 * than asked, or anything after the invoice is paid or has ended, is never kept silently; a transfer a little late
 * still counts while the price holds.
 */
function AmountRules({ coin, extraRule }: { coin: string; extraRule: string }) {
  return (
    <details className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
      <summary className="cursor-pointer rounded font-medium text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
        Sent too little, too much or too late?
      </summary>
      <ul className="mt-2 flex list-disc flex-col gap-1 pl-5">
        <li>Several transfers add up: what is still missing shows here until the invoice ends.</li>
        <li>More than asked, anything sent after it is paid, or what arrived when it ends unpaid: {extraRule}</li>
        <li>
          A transfer up to an hour after the countdown still pays it while the price of {coin === "ETH" ? "ether" : coin} has not fallen more than 2%
          {coin === "ETH" ? "" : " (USDC: always)"}; otherwise it is treated as above.
        </li>
      </ul>
    </details>
  );
}

/** What is still to send, in the coin's smallest unit. */
function remainingAtomic(p: AddressPayment): string {
  const left = BigInt(p.amount_atomic) - BigInt(p.received_atomic);
  return (left > 0n ? left : 0n).toString();
}
