import { jsonResponse } from "@/lib/http/api-error";
import { publicOrigin } from "@/lib/http/origin";
import { withRequestLog } from "@/lib/http/request-log";
import { resolveWallet, signInRequired } from "@/lib/http/x402/with-wallet";
import { errorResponse, withX402Fee, x402Headers, x402Preflight } from "@/lib/http/x402/with-x402-fee";
import { invoiceStatusResponse, requireInvoiceId } from "@/lib/http/x402/x402-status";

export const dynamic = "force-dynamic";

const paidStatus = withX402Fee(
  "invoiceStatus",
  async (req, { origin, wallet, via }) =>
    jsonResponse(await invoiceStatusResponse(new URL(req.url), origin, wallet ? { wallet, proven: via === "token" } : null)),
  (req) => void requireInvoiceId(new URL(req.url)),
);

/** Status for whoever pays the fee; with SIGN-IN-WITH-X the wallet is proven (no fee) and the payer sees the codes. */
export const GET = withRequestLog(async (req: Request) => {
  if (!req.headers.get("sign-in-with-x")) return paidStatus(req);
  try {
    const url = new URL(req.url);
    requireInvoiceId(url);
    const origin = publicOrigin(req);
    const who = await resolveWallet(req, origin, false);
    if (!who || "problem" in who) return signInRequired(req, origin, who && "problem" in who ? who.problem : "Sign-in required");
    return jsonResponse(await invoiceStatusResponse(url, origin, { wallet: who.wallet, proven: true }), { headers: x402Headers() });
  } catch (err) {
    return errorResponse(err);
  }
});

export const OPTIONS = x402Preflight;
