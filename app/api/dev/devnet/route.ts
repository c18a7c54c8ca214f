import { config } from "@/lib/platform/config";
import { getDevnet } from "@/lib/devnet";
import { describeDevnet } from "@/lib/devnet/shared";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { guardedRoute } from "@/lib/platform/http/guarded-route";

export const dynamic = "force-dynamic";

/** The local chains of devnet mode: networks, RPC URLs, payTo and the USDC token on each (as `npm run devnet` serves them). 404 in other modes. */
export const GET = guardedRoute(async () => {
  if (config().networkMode !== "devnet") return jsonResponse({ code: "NOT_FOUND", message: "Not found" }, { status: 404 });
  const devnet = await getDevnet();
  return jsonResponse(describeDevnet(devnet.networks, devnet.addressNetworks));
});
