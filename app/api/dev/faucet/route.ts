import { config } from "@/lib/platform/config";
import { getDevnet } from "@/lib/devnet";
import { faucet } from "@/lib/devnet/faucet";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { x402Json } from "@/lib/platform/http/body";
import { errorResponse } from "@/lib/api/x402/with-x402-fee";
import { guardedRoute } from "@/lib/platform/http/guarded-route";

export const dynamic = "force-dynamic";

/** Devnet only: mints test USDC. Body `{network, address, amount}`, amount in USDC, at most 10000. */
export const POST = guardedRoute(async (req: Request) => {
  if (config().networkMode !== "devnet") return jsonResponse({ code: "NOT_FOUND", message: "Not found" }, { status: 404 });
  try {
    const body = await x402Json(req, 'The body must be JSON: {"network", "address", "amount"}.');
    return jsonResponse(await faucet(await getDevnet(), body));
  } catch (err) {
    return errorResponse(err);
  }
});
