"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { RedeliverWebhookState } from "@/lib/dashboard/form-states";
import { primaryButtonClass } from "./form-field";
import { AttemptOutcome } from "./webhook-attempt-outcome";

type Props = { id: string; action: (state: RedeliverWebhookState, form: FormData) => Promise<RedeliverWebhookState> };

/** "Redeliver": sends the message again now and shows what the receiver answered; the attempt log shows it too. */
export function RedeliverWebhookButton({ id, action }: Props) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="flex flex-col items-start gap-3">
      <input type="hidden" name="id" value={id} />
      <button type="submit" disabled={pending} className={primaryButtonClass}>
        {pending ? "Sending…" : "Redeliver"}
      </button>
      <div role="status" className="w-full empty:hidden">
        {state.outcome && (
          <AttemptOutcome outcome={state.outcome}>
            {state.outcome.endpointDisabled && (
              <p>
                Its endpoint is still disabled: its other messages stay held until you re-enable it on the{" "}
                <Link href="/dashboard/webhooks" className="font-semibold underline underline-offset-4">
                  Webhooks page
                </Link>
                .
              </p>
            )}
          </AttemptOutcome>
        )}
      </div>
      <p role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
        {state.error}
      </p>
    </form>
  );
}
