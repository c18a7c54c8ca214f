"use client";

import { useActionState } from "react";
import { ActionMessages } from "@/components/ui/action-messages";
import type { EnableEndpointState } from "@/lib/dashboard/form-states";

type Props = { url: string; disabled: boolean; action: (state: EnableEndpointState, form: FormData) => Promise<EnableEndpointState> };

/**
 * "Re-enable" on a disabled endpoint's row. It stays mounted once the endpoint is enabled again, to say how many held
 * messages went out.
 */
export function EnableEndpointButton({ url, disabled, action }: Props) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="flex flex-col items-start gap-1.5">
      <input type="hidden" name="url" value={url} />
      {disabled && (
        <button
          type="submit"
          disabled={pending}
          className="h-9 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-900 hover:bg-slate-50 disabled:opacity-60"
        >
          {pending ? "Re-enabling…" : "Re-enable"}
          <span className="sr-only"> {url}</span>
        </button>
      )}
      <ActionMessages notice={releasedNotice(state.released)} error={state.error} />
    </form>
  );
}

function releasedNotice(released: number | undefined) {
  if (released === undefined) return null;
  return `Re-enabled. ${released === 0 ? "No message was held." : `${released} held message${released === 1 ? " is" : "s are"} being sent now.`}`;
}
