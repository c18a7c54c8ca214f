import { config } from "@/lib/config";
import { jsonResponse } from "@/lib/http/api-error";
import { withX402Fee, x402Preflight } from "@/lib/http/x402/with-x402-fee";
import { checkoutInfo } from "@/lib/http/x402/x402-info";
import { getPayments } from "@/lib/payments/payments";

export const dynamic = "force-dynamic";

export const GET = withX402Fee("checkoutInfo", async (_req, { origin }) =>
  jsonResponse(checkoutInfo(origin, (await getPayments()).networks, config().networkMode)),
);

export const OPTIONS = x402Preflight;
