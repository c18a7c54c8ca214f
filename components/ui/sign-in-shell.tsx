import type { ReactNode } from "react";
import { primaryButtonClass } from "@/components/dashboard/form-field";

/**
 * The frame of every sign-in form (the dashboard's, the operator's): its fields, the error read out as it appears, and
 * the button that says it is working while the action runs.
 */
export function SignInShell({ action, pending, error, children }: { action: (form: FormData) => void; pending: boolean; error?: string; children: ReactNode }) {
  return (
    <form action={action} className="flex flex-col gap-5">
      {children}
      <p role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
        {error}
      </p>
      <button type="submit" disabled={pending} className={primaryButtonClass}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
