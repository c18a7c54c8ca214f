"use client";

import Link from "next/link";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { formatUsd } from "./format";
import { primaryButtonClass, secondaryButtonClass } from "./form-field";
import { SecretField } from "./secret-field";
/** What `POST /api/dev/demo-merchant` answers: the new account and its credentials, shown this once. */
type Created = { merchant_id: string; name: string; balance_cents: number; api_id: string; api_secret: string; api_token: string };

// Checked by hand rather than with zod, which this page does not otherwise load.
function isCreated(body: unknown): body is Created {
  const b = body as Partial<Record<keyof Created, unknown>> | null;
  return (
    typeof b === "object" &&
    b !== null &&
    Number.isInteger(b.balance_cents) &&
    (["merchant_id", "name", "api_id", "api_secret", "api_token"] as const).every((k) => typeof b[k] === "string")
  );
}

const messageOf = (body: unknown) =>
  typeof body === "object" && body !== null && typeof (body as { message?: unknown }).message === "string" ? (body as { message: string }).message : undefined;

const box = "flex flex-col gap-3 rounded-2xl p-5 shadow-sm ring-1 sm:p-6";

/**
 * The devnet's way in without an operator (the page renders it in devnet mode only; the route answers 404 in the
 * others): "Create a demo merchant" makes an account with a balance, signs this browser in, and shows its credentials
 * once. Until then, `children` (the sign-in form) is shown above it; after, the credentials take its place.
 */
export function DemoMerchantSignIn({ creditCents, children }: { creditCents: number; children: ReactNode }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [merchant, setMerchant] = useState<Created>();

  async function create() {
    setPending(true);
    setError(undefined);
    try {
      const res = await fetch("/api/dev/demo-merchant", { method: "POST" });
      const body: unknown = await res.json().catch(() => undefined);
      if (res.ok && isCreated(body)) setMerchant(body);
      else setError(messageOf(body) ?? `The shop answered ${res.status}. Try again.`);
    } catch {
      setError("The shop could not be reached. Try again.");
    } finally {
      setPending(false);
    }
  }

  if (merchant) return <CreatedPanel merchant={merchant} />;
  return (
    <>
      {children}
      <section aria-labelledby="demo-merchant-heading" className={`${box} bg-white ring-slate-200`}>
        <h2 id="demo-merchant-heading" className="font-bold text-slate-900">
          Trying the shop on the devnet?
        </h2>
        <p className="text-sm text-slate-700">
          Create a demo merchant: an account with {formatUsd(BigInt(creditCents))} of test balance and its own API keys, signed in at once. Only the devnet
          offers this; elsewhere the shop&apos;s operator creates merchant accounts.
        </p>
        <p role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
          {error}
        </p>
        <button type="button" onClick={() => void create()} disabled={pending} className={`${secondaryButtonClass} w-full sm:w-fit`}>
          {pending ? "Creating…" : "Create a demo merchant"}
        </button>
      </section>
    </>
  );
}

/** The new account's credentials, shown once, and the way on to the dashboard (the browser is already signed in). */
function CreatedPanel({ merchant }: { merchant: Created }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="demo-created-heading" className={`${box} bg-emerald-50 ring-emerald-200`}>
      <h1 id="demo-created-heading" ref={heading} tabIndex={-1} className="text-2xl font-bold text-slate-900">
        {merchant.name} is ready
      </h1>
      <p className="text-sm text-slate-700">
        A merchant account with {formatUsd(BigInt(merchant.balance_cents))} of test balance. You are signed in to its dashboard with the API key below.
      </p>
      <p className="rounded-xl bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 ring-1 ring-amber-200">
        <strong>Copy the secret and the token now.</strong> They are shown only this once; the shop keeps only a hash of them. Use them with the merchant API,
        or to sign in again later. If you lose them, create a new key on the API keys page.
      </p>
      <SecretField label="API ID" value={merchant.api_id} />
      <SecretField label="API secret" value={merchant.api_secret} />
      <SecretField label="Personal token" value={merchant.api_token} />
      <Link href="/dashboard" className={`${primaryButtonClass} inline-flex items-center justify-center`}>
        Continue to the dashboard
      </Link>
    </section>
  );
}
