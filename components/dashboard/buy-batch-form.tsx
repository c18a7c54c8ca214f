"use client";

import Link from "next/link";
import { useActionState, useEffect, useRef } from "react";
import type { BuyBatchState } from "@/lib/dashboard/form-states";
import { textLinkClass } from "./card";
import { inputClass, primaryButtonClass } from "./form-field";

type Field = NonNullable<BuyBatchState["field"]>;

/** A labelled input of the form, with its hint, and its refusal under it (announced, and tied to the input). */
function BatchField({
  id,
  name,
  label,
  hint,
  state,
  ...input
}: { id: string; name: Field; label: string; hint: string; state: BuyBatchState } & Omit<React.ComponentProps<"input">, "id" | "name">) {
  const invalid = state.field === name;
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold text-slate-900">
        {label}
      </label>
      <input
        id={id}
        name={name}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error ${id}-hint` : `${id}-hint`}
        className={inputClass}
        {...input}
      />
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        {hint}
      </p>
      {invalid && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">
          {state.error}
        </p>
      )}
    </div>
  );
}

/**
 * Buy a batch of the shop's gift cards from the balance: how many, each card's value, its currency. A refusal is shown
 * under its field (a balance too low under the button), and what was sent stays in the form.
 */
export function BuyBatchForm({
  action,
  currencies,
  maxQuantity,
  balance,
  requestKey,
}: {
  action: (state: BuyBatchState, form: FormData) => Promise<BuyBatchState>;
  currencies: string[];
  maxQuantity: number;
  /** The balance now, formatted. */
  balance: string;
  /** The key of the first purchase (each answer brings the next). */
  requestKey: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const done = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (state.bought) done.current?.focus();
  }, [state.bought]);
  // After a refusal the form keeps what was sent (React resets a form to its defaults once its action ends).
  const values = state.values;
  return (
    <section aria-labelledby="buy-batch-heading" className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <h2 id="buy-batch-heading" className="text-lg font-bold text-slate-900">
        Buy a batch
      </h2>
      <p className="text-sm text-slate-700">
        The price (each card&apos;s value in US dollars at today&apos;s rate, rounded up to the cent, times the quantity) is taken from your balance,{" "}
        <strong className="tabular-nums">{balance}</strong> now. Each card gets its own code.
      </p>
      {state.bought && (
        <p ref={done} tabIndex={-1} role="status" className="rounded-xl bg-emerald-50 px-4 py-3 text-sm text-emerald-900 ring-1 ring-emerald-200">
          {state.bought.status === "complete"
            ? `Batch bought: ${state.bought.issued} of ${state.bought.quantity} cards issued. `
            : `Batch bought: its cards are being issued (${state.bought.issued} of ${state.bought.quantity} so far). `}
          <Link href={`/dashboard/gift-cards/${state.bought.id}`} className={`${textLinkClass} font-mono`}>
            Open {state.bought.id}
          </Link>
        </p>
      )}
      <form action={formAction} className="flex flex-col gap-4" noValidate>
        <input type="hidden" name="request_key" value={state.requestKey ?? requestKey} />
        <div className="grid gap-4 sm:grid-cols-3">
          <BatchField
            id="batch-quantity"
            name="quantity"
            label="Quantity"
            hint={`Cards in the batch, 1 to ${maxQuantity.toLocaleString("en-US")}.`}
            state={state}
            type="number"
            inputMode="numeric"
            min={1}
            max={maxQuantity}
            step={1}
            required
            defaultValue={values?.quantity ?? ""}
          />
          <BatchField
            id="batch-value"
            name="value"
            label="Value of each card"
            hint="In the card's currency, e.g. 25 or 9.99 (1 to 1,000 USD)."
            state={state}
            inputMode="decimal"
            autoComplete="off"
            required
            defaultValue={values?.value ?? ""}
          />
          <BatchField
            id="batch-currency"
            name="currency"
            label="Currency"
            hint="ISO 4217 code, e.g. USD or EUR."
            state={state}
            list="batch-currencies"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={3}
            required
            defaultValue={values?.currency ?? "USD"}
          />
          <datalist id="batch-currencies">
            {currencies.map((c) => (
              <option key={c} value={c} />
            ))}
          </datalist>
        </div>
        {!state.field && state.error && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {state.error}{" "}
            <Link href="/dashboard/balance" className={textLinkClass}>
              Go to the balance
            </Link>
          </p>
        )}
        <button type="submit" disabled={pending} className={`${primaryButtonClass} w-full sm:w-fit`}>
          {pending ? "Buying…" : "Buy batch"}
        </button>
      </form>
    </section>
  );
}
