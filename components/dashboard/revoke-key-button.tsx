"use client";

import { useActionState, useRef } from "react";
import type { RevokeKeyState } from "@/lib/dashboard/form-states";
import { dangerButtonClass, secondaryButtonClass } from "./form-field";

type Props = {
  id: string;
  name: string;
  publicId: string;
  /** The session signed in with this key: revoking it signs the merchant out. */
  signedInWith: boolean;
  action: (state: RevokeKeyState, form: FormData) => Promise<RevokeKeyState>;
};

/** "Revoke", then a confirmation dialog (Escape or Cancel backs out) that says what revoking does. */
export function RevokeKeyButton({ id, name, publicId, signedInWith, action }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, formAction, pending] = useActionState(action, {});
  const headingId = `revoke-${id}-heading`;
  return (
    <>
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        className="h-9 rounded-lg border border-red-300 bg-white px-3 text-sm font-semibold text-red-700 hover:bg-red-50"
      >
        Revoke<span className="sr-only"> {name}</span>
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={headingId}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl bg-white p-0 text-left shadow-xl ring-1 ring-slate-200 backdrop:bg-slate-900/50"
      >
        <form action={formAction} className="flex flex-col gap-4 p-5">
          <h2 id={headingId} className="text-lg font-bold text-slate-900">
            Revoke “{name}”?
          </h2>
          <p className="text-sm text-slate-700">
            Programs using <code className="font-mono break-all text-slate-900">{publicId}</code> get 401 from the API from now on. This cannot be undone.
          </p>
          {signedInWith && <p className="text-sm font-medium text-amber-900">You are signed in with this key: revoking it also signs you out.</p>}
          <input type="hidden" name="id" value={id} />
          <p role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
            {state.error}
          </p>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <button type="button" onClick={() => dialog.current?.close()} className={secondaryButtonClass}>
              Cancel
            </button>
            <button type="submit" disabled={pending} className={dangerButtonClass}>
              {pending ? "Revoking…" : "Revoke key"}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
