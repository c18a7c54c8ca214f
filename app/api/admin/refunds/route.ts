import { adminRoute } from "@/lib/api/admin/route";
import { toRefundsWire } from "@/lib/api/admin/wire";
import { listRefundsDue } from "@/lib/fulfilment";
import { jsonResponse } from "@/lib/platform/http/api-error";

export const dynamic = "force-dynamic";

/** The refunds due, oldest first: `{refunds: [{invoice_id, network, payment_payer, orders, amount_usdc, since, last_error, …}]}`. */
export const GET = adminRoute(async (_req, { db }) => jsonResponse(toRefundsWire(await listRefundsDue(db))));
