"use client";

import { useActionState, useState } from "react";
import type { SignInState } from "@/lib/dashboard/form-states";
import { radioTileClass } from "@/components/ui/radio-tile";
import { SignInShell } from "@/components/ui/sign-in-shell";
import { FormField, SecretInput } from "./form-field";

const MODES = [
  { value: "key", label: "API ID and secret" },
  { value: "token", label: "Personal token" },
] as const;

/** Sign in with a business key's id and secret, or a personal token. Errors are read out as they appear. */
export function SignInForm({ action }: { action: (state: SignInState, form: FormData) => Promise<SignInState> }) {
  const [state, formAction, pending] = useActionState(action, { mode: "key" });
  const [mode, setMode] = useState<SignInState["mode"]>(state.mode);
  return (
    <SignInShell action={formAction} pending={pending} error={state.error}>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Sign in with</legend>
        <div className="grid grid-cols-2 gap-2">
          {MODES.map((m) => (
            <label
              key={m.value}
              className={`flex items-center justify-center gap-2 px-3 py-2 text-center font-medium text-slate-800 has-[:checked]:text-brand-700 ${radioTileClass}`}
            >
              <input type="radio" name="mode" value={m.value} checked={mode === m.value} onChange={() => setMode(m.value)} className="sr-only" />
              {m.label}
            </label>
          ))}
        </div>
      </fieldset>

      {mode === "key" ? (
        <>
          <FormField
            id="api_id"
            name="api_id"
            label="API ID"
            hint="Starts with ak_"
            defaultValue={state.apiId}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            maxLength={200}
            aria-invalid={Boolean(state.error) || undefined}
          />
          <SecretInput id="api_secret" label="API secret" maxLength={500} invalid={Boolean(state.error)} />
        </>
      ) : (
        <SecretInput id="api_token" label="Personal token" hint="Starts with pt_" maxLength={700} invalid={Boolean(state.error)} />
      )}
    </SignInShell>
  );
}
