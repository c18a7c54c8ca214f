"use client";

import { useActionState } from "react";
import { FormField, primaryButtonClass } from "@/components/dashboard/form-field";

export type OperatorSignInState = { error?: string };

/** The operator signs in with the admin token. Errors are read out as they appear. */
export function OperatorSignInForm({ action }: { action: (state: OperatorSignInState, form: FormData) => Promise<OperatorSignInState> }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="flex flex-col gap-5">
      <FormField
        id="admin_token"
        name="admin_token"
        label="Admin token"
        hint="ADMIN_TOKEN, or on the devnet the token the server printed at start"
        type="password"
        autoComplete="current-password"
        required
        maxLength={500}
        aria-invalid={Boolean(state.error) || undefined}
      />
      <p role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
        {state.error}
      </p>
      <button type="submit" disabled={pending} className={primaryButtonClass}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
