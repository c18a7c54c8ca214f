"use client";

import { useActionState } from "react";
import { FormField } from "@/components/dashboard/form-field";
import { SignInShell } from "@/components/ui/sign-in-shell";

export type OperatorSignInState = { error?: string };

/** The operator signs in with the admin token. Errors are read out as they appear. */
export function OperatorSignInForm({ action }: { action: (state: OperatorSignInState, form: FormData) => Promise<OperatorSignInState> }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <SignInShell action={formAction} pending={pending} error={state.error}>
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
    </SignInShell>
  );
}
