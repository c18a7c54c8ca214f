"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import type { CreateKeyState, IssuedKey } from "@/lib/dashboard/form-states";
import { SecretField } from "./secret-field";
import { radioTileClass } from "@/components/ui/radio-tile";
import { inputClass, primaryButtonClass, secondaryButtonClass } from "./form-field";

const KINDS = [
  { value: "business", label: "Business key", hint: "An API ID and secret, sent with HTTP Basic. For servers and integrations." },
  { value: "personal", label: "Personal token", hint: "One token, sent as a Bearer token. For scripts and your own tools." },
] as const;

/** The credential just made, shown once: its secret cannot be read again after this. */
function IssuedPanel({ issued, onDone }: { issued: IssuedKey; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [issued]);
  return (
    <section aria-labelledby="issued-heading" className="flex flex-col gap-3 rounded-2xl bg-emerald-50 p-4 ring-1 ring-emerald-200 sm:p-5">
      <h3 id="issued-heading" ref={heading} tabIndex={-1} className="font-bold text-slate-900">
        {issued.kind === "business" ? "Business key" : "Personal token"} “{issued.name}” created
      </h3>
      <p className="text-sm font-medium text-amber-900">
        <strong>Copy the secret now.</strong> It is shown only this once; the shop keeps only a hash of it. If you lose it, revoke this key and create another.
      </p>
      {issued.api_id && <SecretField label="API ID" value={issued.api_id} />}
      {issued.api_secret && <SecretField label="API secret" value={issued.api_secret} />}
      {issued.api_token && <SecretField label="Personal token" value={issued.api_token} />}
      <button type="button" onClick={onDone} className={`${secondaryButtonClass} w-fit`}>
        I have saved it
      </button>
    </section>
  );
}

/** Name a new credential, pick its kind, and get its secret once. */
export function CreateKeyForm({ action }: { action: (state: CreateKeyState, form: FormData) => Promise<CreateKeyState> }) {
  const [state, formAction, pending] = useActionState(action, {});
  const [dismissed, setDismissed] = useState<IssuedKey | undefined>();
  const shown = state.issued && state.issued !== dismissed ? state.issued : undefined;
  return (
    <section aria-labelledby="create-key-heading" className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <h2 id="create-key-heading" className="text-lg font-bold text-slate-900">
        Create a key
      </h2>
      {shown && <IssuedPanel issued={shown} onDone={() => setDismissed(shown)} />}
      <form action={formAction} className="flex flex-col gap-4">
        <div className="flex flex-col gap-1.5">
          <label htmlFor="key-name" className="text-sm font-semibold text-slate-900">
            Name
          </label>
          <input
            id="key-name"
            name="name"
            defaultValue={state.name}
            required
            maxLength={60}
            autoComplete="off"
            placeholder="e.g. Production server"
            aria-invalid={state.field === "name" || undefined}
            aria-describedby="key-name-hint"
            className={`${inputClass} sm:max-w-sm`}
          />
          <p id="key-name-hint" className="text-xs text-slate-600">
            Where it is used, so that you know which one to revoke later.
          </p>
        </div>
        <fieldset aria-invalid={state.field === "kind" || undefined}>
          <legend className="mb-2 text-sm font-semibold text-slate-900">Kind</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {KINDS.map((k) => (
              <label key={k.value} className={`flex gap-3 p-3 ${radioTileClass}`}>
                <input type="radio" name="kind" value={k.value} defaultChecked={(state.kind ?? "business") === k.value} className="mt-0.5 accent-brand-600" />
                <span className="flex flex-col gap-0.5">
                  <span className="font-semibold text-slate-900">{k.label}</span>
                  <span className="text-slate-700">{k.hint}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <p role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
          {state.error}
        </p>
        <button type="submit" disabled={pending} className={`${primaryButtonClass} w-full sm:w-fit`}>
          {pending ? "Creating…" : "Create key"}
        </button>
      </form>
    </section>
  );
}
