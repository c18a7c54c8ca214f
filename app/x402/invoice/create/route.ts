import { jsonResponse } from "@/lib/http/api-error";
import { resolveWallet } from "@/lib/http/x402/with-wallet";
import { withX402Fee, x402Preflight } from "@/lib/http/x402/with-x402-fee";
import { createInvoiceResponse, readCreateBody } from "@/lib/http/x402/x402-invoice";

export const dynamic = "force-dynamic";

/**
 * Quotes a cart and locks its price. The paying wallet is the SIGN-IN-WITH-X wallet when one is sent, else the
 * session token's, else the payer of the 0.002 fee.
 */
export const POST = withX402Fee(
  "invoiceCreate",
  async (req, { wallet, origin }) => {
    const signedIn = req.headers.get("sign-in-with-x") ? await resolveWallet(req, origin, false) : undefined;
    if (signedIn && "problem" in signedIn) {
      return jsonResponse({ code: "SIWX_REFUSED", message: signedIn.problem }, { status: 401 });
    }
    return jsonResponse(await createInvoiceResponse(req, signedIn?.wallet ?? wallet, origin));
  },
  async (req) => void (await readCreateBody(req)),
);

export const OPTIONS = x402Preflight;
