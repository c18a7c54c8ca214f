"use client";

import Link from "next/link";
import { useId, useRef, useState } from "react";
import { explainError } from "@/components/checkout/explain-error";
import { giftCardBalance, ShopApiError, type GiftCardBalance } from "@/components/checkout/shop-api";
import { useSecondsLeft } from "@/components/checkout/use-countdown";
import { GiftCardCodeInput } from "./code-input";

const USE: Record<GiftCardBalance["history"][number]["status"], string> = {
  held: "Held by an open invoice",
  spent: "Spent",
  released: "Released: the invoice was not paid",
};

const STATUS_CLASS: Record<GiftCardBalance["history"][number]["status"], string> = {
  held: "bg-amber-100 text-amber-900",
  spent: "bg-slate-100 text-slate-800",
  released: "bg-emerald-100 text-emerald-900",
};

const isZero = (amount: string) => Number(amount) === 0;

/** The balance page's form: a card's code -> its currency, value, balance, what open invoices hold, and its history. */
export function GiftCardBalanceForm() {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [card, setCard] = useState<GiftCardBalance | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [waitUntil, setWaitUntil] = useState<string | undefined>(undefined);
  const wait = useSecondsLeft(waitUntil);
  const waiting = wait !== null && wait > 0;

  const check = async () => {
    if (!code.trim()) {
      setError("Enter the code printed on your gift card.");
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    setWaitUntil(undefined);
    try {
      setCard(await giftCardBalance(code.trim()));
    } catch (err) {
      setCard(null);
      if (err instanceof ShopApiError && err.status === 404) {
        setError("No gift card has this code. Check it (the letters O and I read as 0 and 1) and try again.");
      } else if (err instanceof ShopApiError && err.status === 429) {
        const seconds = err.retryAfter ?? 60;
        setWaitUntil(new Date(Date.now() + seconds * 1000).toISOString());
        setError(null);
      } else if (err instanceof ShopApiError && err.status === 400) {
        setError(err.message);
      } else {
        setError(explainError(err));
      }
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  const problem = waiting ? `Too many tries: wait ${wait} second${wait === 1 ? "" : "s"} before you try again.` : error;

  return (
    <div className="flex flex-col gap-6">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!busy && !waiting) void check();
        }}
        className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5"
      >
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-code`} className="text-sm font-semibold text-slate-900">
            Gift card code
          </label>
          <GiftCardCodeInput
            ref={input}
            id={`${id}-code`}
            name="code"
            required
            value={code}
            onValue={(v) => {
              setCode(v);
              setError(null);
            }}
            invalid={error !== null}
            aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ""}`}
          />
          <p id={`${id}-hint`} className="text-sm text-slate-700">
            20 letters and digits, in groups of four. Dashes and spaces do not matter.
          </p>
          <p id={`${id}-problem`} role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
            {problem}
          </p>
        </div>
        <button
          type="submit"
          disabled={busy || waiting}
          className="h-11 w-full rounded-xl bg-brand-600 px-6 font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-not-allowed disabled:bg-slate-400 sm:w-fit"
        >
          {busy ? "Checking…" : "Check balance"}
        </button>
      </form>

      {card && <CardDetails card={card} />}
    </div>
  );
}

function CardDetails({ card }: { card: GiftCardBalance }) {
  const money = (amount: string) => `${amount} ${card.currency}`;
  return (
    <section aria-labelledby="card-heading" aria-live="polite" className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <h2 id="card-heading" className="text-lg font-bold text-slate-900">
        Your gift card
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <div className="flex flex-col gap-0.5 rounded-xl bg-brand-50 p-3 ring-1 ring-brand-100">
          <dt className="text-xs font-semibold tracking-wide text-slate-700 uppercase">Balance</dt>
          <dd className="text-xl font-bold text-slate-900">{money(card.balance)}</dd>
        </div>
        <div className="flex flex-col gap-0.5 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
          <dt className="text-xs font-semibold tracking-wide text-slate-700 uppercase">Held</dt>
          <dd className="text-xl font-bold text-slate-900">{money(card.held)}</dd>
        </div>
        <div className="flex flex-col gap-0.5 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
          <dt className="text-xs font-semibold tracking-wide text-slate-700 uppercase">Value</dt>
          <dd className="text-xl font-bold text-slate-900">{money(card.value)}</dd>
        </div>
        <div className="flex flex-col gap-0.5 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
          <dt className="text-xs font-semibold tracking-wide text-slate-700 uppercase">Currency</dt>
          <dd className="text-xl font-bold text-slate-900">{card.currency}</dd>
        </div>
      </dl>
      {!isZero(card.held) && <p className="text-sm text-slate-700">Held: set aside for invoices not paid yet. It comes back if they expire.</p>}

      <h3 className="font-semibold text-slate-900">History, newest first</h3>
      {card.history.length === 0 ? (
        <p className="text-sm text-slate-700">This card has not been used yet.</p>
      ) : (
        <ul aria-label="History" className="flex flex-col divide-y divide-slate-200">
          {[...card.history].reverse().map((h) => (
            <li key={`${h.invoice_id}-${h.created_at}`} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
              <div className="flex min-w-0 flex-col gap-0.5">
                <span className="font-semibold text-slate-900">
                  {money(h.amount)}
                  {!isZero(h.refunded) && <span className="font-normal text-slate-700"> · {money(h.refunded)} refunded to the card</span>}
                </span>
                <span className="text-sm text-slate-700">
                  Invoice{" "}
                  <Link href={`/invoices/${h.invoice_id}`} className="font-mono break-all text-brand-700 underline">
                    {h.invoice_id}
                  </Link>{" "}
                  · <time dateTime={h.updated_at}>{new Date(h.updated_at).toLocaleString()}</time>
                </span>
              </div>
              <span className={`w-fit shrink-0 rounded-full px-2.5 py-0.5 text-sm font-medium ${STATUS_CLASS[h.status]}`}>{USE[h.status]}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
