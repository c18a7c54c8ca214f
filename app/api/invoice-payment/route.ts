import { X402_HANDLERS } from "@/lib/agents/x402/handlers";
import { requirementsAnsweredOk } from "@/lib/api/x402/requirements-ok";

export const dynamic = "force-dynamic";

/**
 * The shop's pages' first step of paying an invoice: `POST /x402/invoice/pay`'s payment requirements (the invoice's
 * locked price on every network) answered 200 instead of 402; the signed payment then goes to /x402/invoice/pay.
 */
export const POST = requirementsAnsweredOk(X402_HANDLERS.invoicePay);
