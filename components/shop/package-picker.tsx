"use client";

import Link from "next/link";
import { useId, useState } from "react";
import { addToCart, MAX_CART_ITEMS } from "@/components/cart/cart-store";
import { radioTileClass } from "@/components/ui/radio-tile";
import { useHydrated } from "@/components/ui/use-hydrated";
import { parseMinorUnits } from "@/lib/platform/money";
import { tableFxSource } from "@/lib/catalog/fx";
import { aboveCost, formatPackage, formatUsd, formatUsdc, priceUsdc, rangeCostCents } from "@/lib/catalog/pricing";
import type { RecipientType } from "@/lib/catalog/product-input";

export type PickerPackage = { value: string; label: string; detail?: string; priceUsdc: string; soldOut?: boolean };
export type PickerRange = {
  min: string;
  max: string;
  step: string;
  currency: string;
  exponent: number;
  /** USD per unit of the currency, and the margin, so the price of an open amount is computed as the server does. */
  usdPerUnit: string;
  marginBps: number;
  /** What the supplier charges per unit (US dollars) and the margin over it: an amount never sells below that. */
  costRate: string | null;
  costMarginBps: number;
};

type Props = {
  product: { slug: string; name: string; image: string; currency: string; recipientType: RecipientType; phonePrefixes: string[]; inStock: boolean };
  packages: PickerPackage[];
  range: PickerRange | null;
  /** An eSIM of the shopper's to add this bundle to (from a "Top up this eSIM" link), instead of a new eSIM. */
  topupIccid?: string;
};

function rangePrice(range: PickerRange, amount: string): { price?: bigint; error?: string } {
  const minor = parseMinorUnits(amount, range.exponent);
  const min = parseMinorUnits(range.min, range.exponent)!;
  const max = parseMinorUnits(range.max, range.exponent)!;
  const step = parseMinorUnits(range.step, range.exponent)!;
  if (minor === undefined) return { error: `Enter an amount in ${range.currency}, like ${range.min}.` };
  const money = (value: string) => formatPackage(value, range.currency);
  if (minor < min || minor > max) return { error: `Choose an amount from ${money(range.min)} to ${money(range.max)}.` };
  if ((minor - min) % step !== 0n) return { error: `The amount must go up in steps of ${money(range.step)}.` };
  const fx = tableFxSource("", { [range.currency]: range.usdPerUnit });
  const byFace = priceUsdc({ faceValueMinor: minor, currency: range.currency }, { fx, marginBps: range.marginBps });
  return { price: aboveCost(byFace, rangeCostCents(minor, range.costRate, range.currency), range.costMarginBps) };
}

function recipientError(type: RecipientType, value: string, prefixes: string[]): string | undefined {
  if (type === "none") return undefined;
  if (!value) return type === "phone_number" ? "Enter the phone number to top up." : "Enter the recipient's e-mail address.";
  if (type === "email") return /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(value) ? undefined : "Enter a valid e-mail address.";
  const e164 = value.replace(/[\s().-]/g, "");
  if (!/^\+[1-9]\d{6,14}$/.test(e164)) return "Enter the number in international format, starting with + and the country code.";
  if (prefixes.length > 0 && !prefixes.some((p) => e164.startsWith(p))) {
    return `This operator serves numbers starting with ${prefixes.slice(0, 4).join(", ")}${prefixes.length > 4 ? "…" : ""}.`;
  }
  return undefined;
}

export function PackagePicker({ product, packages, range, topupIccid }: Props) {
  const id = useId();
  const hydrated = useHydrated();
  const [selected, setSelected] = useState<string | undefined>((packages.find((p) => !p.soldOut) ?? packages[0])?.value);
  const [amount, setAmount] = useState(range?.min ?? "");
  const [useRange, setUseRange] = useState(packages.length === 0);
  const [quantity, setQuantity] = useState(1);
  const [recipient, setRecipient] = useState("");
  const [touched, setTouched] = useState(false);
  // Derived, not copied: a new `?iccid=` link shows its own eSIM; the shopper may set it aside.
  const [setAside, setSetAside] = useState<string | undefined>();
  const topup = topupIccid !== setAside ? topupIccid : undefined;
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  const ranged = useRange && range ? rangePrice(range, amount) : undefined;
  const pkg = packages.find((p) => p.value === selected);
  const unitPrice = ranged ? ranged.price : pkg ? BigInt(pkg.priceUsdc) : undefined;
  const recipientProblem = recipientError(product.recipientType, recipient.trim(), product.phonePrefixes);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (!product.inStock || unitPrice === undefined || recipientProblem || ranged?.error || (!ranged && pkg?.soldOut)) return;
    const value = ranged ? amount.trim() : (pkg?.value ?? "");
    const result = addToCart({
      productId: product.slug,
      packageValue: value,
      currency: product.currency,
      quantity,
      recipient:
        topup ?? (product.recipientType === "none" ? undefined : recipient.trim().replace(/[\s().-]/g, product.recipientType === "phone_number" ? "" : " ")),
      name: product.name,
      image: product.image,
      unitPriceUsdc: unitPrice.toString(),
    });
    setStatus(
      result.ok
        ? { ok: true, text: `Added ${quantity} × ${product.name} (${formatPackage(value, product.currency)})${topup ? " as a top-up" : ""} to your cart.` }
        : { ok: false, text: result.reason },
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-5" noValidate>
      {topup && (
        <div role="note" className="flex flex-col gap-2 rounded-xl bg-brand-50 p-3 text-sm text-slate-800 ring-1 ring-brand-200">
          <p>
            <span className="font-semibold text-slate-900">Top-up for your eSIM</span> <code className="rounded bg-white px-1.5 py-0.5 break-all">{topup}</code>
            . The bundle is added to that eSIM: nothing new to install. Pay with the wallet that bought it.
          </p>
          <button type="button" onClick={() => setSetAside(topupIccid)} className="w-fit font-semibold text-brand-700 underline-offset-2 hover:underline">
            Buy a new eSIM instead
          </button>
        </div>
      )}
      {packages.length > 0 && (
        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-slate-900">Choose an amount</legend>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {packages.map((p) => (
              <label
                key={p.value}
                className={`flex flex-col bg-white p-3 has-[:checked]:ring-2 has-[:checked]:ring-brand-600/30 has-[:disabled]:cursor-not-allowed has-[:disabled]:bg-slate-100 ${radioTileClass}`}
              >
                <input
                  type="radio"
                  name={`${id}-package`}
                  value={p.value}
                  disabled={p.soldOut}
                  checked={!useRange && selected === p.value}
                  onChange={() => {
                    setSelected(p.value);
                    setUseRange(false);
                  }}
                  className="sr-only"
                />
                <span className="font-semibold text-slate-900">{p.label}</span>
                {p.detail && <span className="text-xs text-slate-600">{p.detail}</span>}
                <span className="mt-1 text-slate-800">{formatUsd(BigInt(p.priceUsdc))}</span>
                <span className="text-xs text-slate-600">{p.soldOut ? "Sold out" : formatUsdc(BigInt(p.priceUsdc))}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}

      {range && (
        <div className="flex flex-col gap-1">
          {packages.length > 0 && (
            <label className="flex items-center gap-2 text-sm text-slate-800">
              <input type="checkbox" checked={useRange} onChange={(e) => setUseRange(e.target.checked)} />
              Other amount
            </label>
          )}
          {(useRange || packages.length === 0) && (
            <>
              <label htmlFor={`${id}-amount`} className="text-sm font-semibold text-slate-900">
                Amount in {range.currency} ({formatPackage(range.min, range.currency)} to {formatPackage(range.max, range.currency)})
              </label>
              <input
                id={`${id}-amount`}
                inputMode="decimal"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                aria-invalid={Boolean(ranged?.error)}
                aria-describedby={`${id}-amount-msg`}
                className="h-11 w-48 rounded-xl border border-slate-300 bg-white px-3 text-slate-900"
              />
              <p id={`${id}-amount-msg`} className={`text-sm ${ranged?.error ? "text-red-700" : "text-slate-700"}`}>
                {ranged?.error ?? (ranged?.price !== undefined ? `${formatUsd(ranged.price)} · ${formatUsdc(ranged.price)}` : "")}
              </p>
            </>
          )}
        </div>
      )}

      {product.recipientType !== "none" && (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-recipient`} className="text-sm font-semibold text-slate-900">
            {product.recipientType === "phone_number" ? "Phone number to top up" : "Recipient e-mail"}
          </label>
          <input
            id={`${id}-recipient`}
            type={product.recipientType === "phone_number" ? "tel" : "email"}
            autoComplete={product.recipientType === "phone_number" ? "tel" : "email"}
            placeholder={product.recipientType === "phone_number" ? `${product.phonePrefixes[0] ?? "+1"}…` : "name@example.com"}
            maxLength={100}
            value={recipient}
            onChange={(e) => setRecipient(e.target.value)}
            onBlur={() => setTouched(true)}
            aria-invalid={touched && Boolean(recipientProblem)}
            aria-describedby={`${id}-recipient-msg`}
            className="h-11 rounded-xl border border-slate-300 bg-white px-3 text-slate-900 aria-[invalid=true]:border-red-600"
          />
          <p id={`${id}-recipient-msg`} className="text-sm text-red-700">
            {touched ? recipientProblem : ""}
          </p>
        </div>
      )}

      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-qty`} className="text-sm font-semibold text-slate-900">
            Quantity
          </label>
          <select
            id={`${id}-qty`}
            value={quantity}
            onChange={(e) => setQuantity(Number(e.target.value))}
            className="h-11 rounded-xl border border-slate-300 bg-white px-3 text-slate-900"
          >
            {Array.from({ length: 5 }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          disabled={!product.inStock || !hydrated}
          // Until hydration the button is disabled but keeps its colour: it is about to work, not unavailable.
          className={`h-11 flex-1 rounded-xl px-6 font-semibold text-white shadow-sm sm:flex-none ${product.inStock ? "bg-brand-600 hover:bg-brand-700" : "cursor-not-allowed bg-slate-400"}`}
        >
          {product.inStock ? "Add to cart" : "Out of stock"}
        </button>
        {unitPrice !== undefined && (
          <p className="text-sm text-slate-700">
            Total <span className="font-semibold text-slate-900">{formatUsd(unitPrice * BigInt(quantity))}</span>
          </p>
        )}
      </div>
      <p role="status" aria-live="polite" className={`text-sm ${status?.ok ? "text-emerald-800" : "text-red-700"}`}>
        {status?.text}
        {status?.ok && (
          <>
            {" "}
            <Link href="/cart" className="font-semibold underline">
              View cart
            </Link>
          </>
        )}
      </p>
      <p className="sr-only">A cart holds at most {MAX_CART_ITEMS} items.</p>
    </form>
  );
}
