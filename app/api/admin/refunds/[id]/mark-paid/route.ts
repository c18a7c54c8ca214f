import { adminRoute, jsonBody } from "@/lib/api/admin/route";
import { markPaidRequest } from "@/lib/api/admin/wire";
import { markRefundPaid } from "@/lib/fulfilment";
import { jsonResponse } from "@/lib/platform/http/api-error";

export const dynamic = "force-dynamic";

/**
 * Records a refund the operator paid by hand (`{tx}`): the invoice's failed orders become refunded by that
 * transaction. Answers `{invoice_id, marked, tx}`; 400 `refund_refused` when it cannot be recorded (the message says why).
 */
export const POST = adminRoute<{ id: string }>(async (req, { db, params }) => {
  const input = markPaidRequest.parse(await jsonBody(req));
  const marked = await markRefundPaid(db, params.id, input.tx);
  return jsonResponse({ invoice_id: params.id, marked, tx: input.tx });
});
