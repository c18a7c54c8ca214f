"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { SendTestWebhookState } from "@/lib/dashboard/form-states";
import { inputClass, secondaryButtonClass } from "./form-field";
import { AttemptOutcome } from "./webhook-attempt-outcome";

type Props = { defaultUrl?: string; action: (state: SendTestWebhookState, form: FormData) => Promise<SendTestWebhookState> };

/** "Send test event": a signed `test` message to a URL, and what it answered. The URL stays in the field to try again. */
export function SendTestWebhookForm({ defaultUrl, action }: Props) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="flex flex-col gap-3">
      <div className="flex flex-col gap-1.5">
        <label htmlFor="test-webhook-url" className="text-sm font-semibold text-slate-900">
          Endpoint URL
        </label>
        <input
          id="test-webhook-url"
          name="url"
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          required
          maxLength={2048}
          defaultValue={state.url ?? defaultUrl}
          placeholder="https://example.com/webhooks"
          aria-invalid={state.error ? true : undefined}
          aria-describedby="test-webhook-url-hint test-webhook-url-error"
          className={`${inputClass} font-mono text-sm`}
        />
        <p id="test-webhook-url-hint" className="text-xs text-slate-600">
          Gets a signed <code className="font-mono">test</code> event, never retried. It shows in the delivery log.
        </p>
      </div>
      <p id="test-webhook-url-error" role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
        {state.error}
      </p>
      <button type="submit" disabled={pending} className={`${secondaryButtonClass} w-full sm:w-fit`}>
        {pending ? "Sending…" : "Send test event"}
      </button>
      <div role="status" className="empty:hidden">
        {state.outcome && (
          <AttemptOutcome outcome={state.outcome}>
            <p>
              <Link href={`/dashboard/webhooks/${state.outcome.deliveryId}`} className="font-semibold underline underline-offset-4">
                Open the test event
              </Link>
            </p>
          </AttemptOutcome>
        )}
      </div>
    </form>
  );
}
