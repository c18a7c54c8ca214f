"use client";

import { useActionState } from "react";
import { RedemptionCard } from "@/components/checkout/redemption-card";
import type { RevealRedemptionState } from "@/lib/dashboard/form-states";
import { secondaryButtonClass } from "./form-field";

type Props = {
  orderId: string;
  /** What the card is headed with: the product and its package ("Steam · $5"). */ title: string;
  action: (state: RevealRedemptionState, form: FormData) => Promise<RevealRedemptionState>;
};

/** "Show redemption details": the codes come from the server when asked, so they are never on screen by accident. */
export function RevealRedemption({ orderId, title, action }: Props) {
  const [state, formAction, pending] = useActionState(action, {});
  if (state.redemption) return <RedemptionCard redemption={state.redemption} title={title} />;
  return (
    <form action={formAction} className="flex flex-col items-start gap-2">
      <input type="hidden" name="id" value={orderId} />
      <button type="submit" disabled={pending} className={secondaryButtonClass}>
        {pending ? "Loading…" : "Show redemption details"}
      </button>
      <p role="alert" className="text-sm font-medium text-red-700 empty:sr-only">
        {state.error}
      </p>
    </form>
  );
}
