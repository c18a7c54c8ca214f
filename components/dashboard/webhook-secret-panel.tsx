"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import { SecretField } from "./secret-field";
import type { WebhookSecretState } from "@/lib/dashboard/form-states";
import { dangerButtonClass, secondaryButtonClass } from "./form-field";
import { formatDateTime } from "./format";

type Props = {
  /** While a rotation's overlap lasts: when the previous secret stops signing (ISO). No secret is sent to the page. */
  previousUntil: string | null;
  /** How long the previous secret keeps signing after a rotation, in hours. */
  overlapHours: number;
  action: (state: WebhookSecretState, form: FormData) => Promise<WebhookSecretState>;
};

const when = (iso: string) => formatDateTime(new Date(iso));

/**
 * The signing secret: revealed on request (it is not in the page's HTML before that), hidden again, and rotated after
 * a confirmation that says the previous secret keeps signing for the overlap.
 */
export function WebhookSecretPanel({ previousUntil, overlapHours, action }: Props) {
  const [state, formAction, pending] = useActionState(action, {});
  const [hidden, setHidden] = useState<WebhookSecretState | undefined>();
  const dialog = useRef<HTMLDialogElement>(null);
  const shown = state.secret && state !== hidden ? state : undefined;
  const until = state.previous !== undefined ? (state.previous?.until ?? null) : previousUntil;

  useEffect(() => {
    if (state.rotated) dialog.current?.close();
  }, [state]);

  return (
    <div className="flex flex-col gap-4">
      {state.rotated && (
        <p role="status" className="rounded-xl bg-emerald-50 px-3 py-2 text-sm text-emerald-900 ring-1 ring-emerald-200">
          New secret made. Put it on your receiver:{" "}
          {state.previous ? `the previous secret keeps signing until ${when(state.previous.until)}.` : "it signs every message from now on."}
        </p>
      )}
      {!state.rotated && until && (
        <p className="text-sm text-slate-700">
          A rotation is under way: messages carry two signatures, with the new secret and with the previous one, until {when(until)}.
        </p>
      )}
      {shown ? (
        <div className="flex flex-col gap-3">
          <SecretField label="Signing secret" value={shown.secret!} />
          {shown.previous && (
            <div className="flex flex-col gap-1">
              <SecretField label="Previous secret" value={shown.previous.secret} />
              <p className="text-xs text-slate-600">Still signs until {when(shown.previous.until)}.</p>
            </div>
          )}
          <button type="button" onClick={() => setHidden(state)} className={`${secondaryButtonClass} w-fit`}>
            Hide secret
          </button>
        </div>
      ) : (
        <form action={formAction}>
          <input type="hidden" name="intent" value="reveal" />
          <button type="submit" disabled={pending} className={`${secondaryButtonClass} w-full sm:w-fit`}>
            {pending ? "Loading…" : "Reveal secret"}
          </button>
        </form>
      )}
      <div>
        <button
          type="button"
          onClick={() => dialog.current?.showModal()}
          className="h-11 w-full rounded-xl border border-red-300 bg-white px-4 font-semibold text-red-700 shadow-sm hover:bg-red-50 sm:w-fit"
        >
          Rotate secret…
        </button>
      </div>
      <p role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
        {state.error}
      </p>
      <dialog
        ref={dialog}
        aria-labelledby="rotate-secret-heading"
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl bg-white p-0 text-left shadow-xl ring-1 ring-slate-200 backdrop:bg-slate-900/50"
      >
        <form action={formAction} className="flex flex-col gap-4 p-5">
          <h2 id="rotate-secret-heading" className="text-lg font-bold text-slate-900">
            Rotate the signing secret?
          </h2>
          <p className="text-sm text-slate-700">
            A new secret signs every message from now on. The current one keeps signing beside it for {overlapHours} hours, so that you can put the new one on
            your receiver without missing a message. Rotating again within that time stops the older secret at once.
          </p>
          <input type="hidden" name="intent" value="rotate" />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button type="button" onClick={() => dialog.current?.close()} className={secondaryButtonClass}>
              Cancel
            </button>
            <button type="submit" disabled={pending} className={dangerButtonClass}>
              {pending ? "Rotating…" : "Rotate secret"}
            </button>
          </div>
        </form>
      </dialog>
    </div>
  );
}
