import { publicOrigin } from "@/lib/platform/http/origin";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { signInRequired } from "@/lib/api/x402/with-wallet";
import { errorResponse } from "@/lib/api/x402/with-x402-fee";
import { checkX402Limits } from "@/lib/api/x402/x402-limits";

export const dynamic = "force-dynamic";

const CONNECT = "/x402/connect";

/**
 * The shop's own pages' way to sign in: `POST /x402/connect`'s sign-in challenge (the same body and PAYMENT-REQUIRED
 * header, a fresh single-use nonce, the message's URI that of /x402/connect), answered 200. The x402 API answers it
 * with a 402, as its clients expect; a browser logs every 402 as a failed resource, which a shopper who opens the
 * console takes for an error. The signed challenge is then sent to /x402/connect as any client sends it.
 */
export const POST = guardedRoute(async (req: Request): Promise<Response> => {
  try {
    const origin = publicOrigin(req);
    // As on /x402/connect: a flood gets no challenge (a stored nonce) issued.
    await checkX402Limits(req);
    const challenge = await signInRequired(new Request(origin + CONNECT, { method: "POST" }), origin, "Sign-in required: send SIGN-IN-WITH-X");
    return new Response(challenge.body, { status: 200, headers: challenge.headers });
  } catch (err) {
    return errorResponse(err);
  }
});
