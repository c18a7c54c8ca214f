"use client";

import { useActionState } from "react";
import { SecretInput } from "@/components/dashboard/form-field";
import { SignInShell } from "@/components/ui/sign-in-shell";

export type OperatorSignInState = { error?: string };

/** The operator signs in with the admin token. Errors are read out as they appear. */
export function OperatorSignInForm({ action }: { action: (state: OperatorSignInState, form: FormData) => Promise<OperatorSignInState> }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <SignInShell action={formAction} pending={pending} error={state.error}>
      <SecretInput
        id="admin_token"
        label="Admin token"
        hint="ADMIN_TOKEN, or on the devnet the token the server printed at start"
        maxLength={500}
        invalid={Boolean(state.error)}
      />
    </SignInShell>
  );
}
