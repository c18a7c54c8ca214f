import { config } from "@/lib/platform/config";
import { createDemoMerchant } from "@/lib/dashboard/demo-merchant";
import { describeWait } from "@/lib/dashboard";
import { getDb } from "@/lib/platform/db";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { startDashboardSession } from "@/lib/dashboard/http/auth";
import { isSameOriginPost } from "@/lib/platform/http/origin";
import { clientIp } from "@/lib/api/x402/x402-limits";
import { log } from "@/lib/platform/log";
import { getRateLimiter } from "@/lib/platform/ratelimit";
import { guardedRoute } from "@/lib/platform/http/guarded-route";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * Devnet only (404 in every other mode): "Create a demo merchant" on the dashboard's sign-in page. Makes a merchant as
 * `npm run admin -- merchant create --credit 100` does, signs this browser in with its business key (the session
 * cookie), and answers its credentials, shown this once: `{merchant_id, name, balance_cents, api_id, api_secret,
 * api_token}`. Posted by the shop's own page only; limited per client address (429 with Retry-After).
 */
export const POST = guardedRoute(async (req: Request) => {
  if (config().networkMode !== "devnet") return jsonResponse({ code: "NOT_FOUND", message: "Not found" }, { status: 404 });
  if (!isSameOriginPost(req.headers)) {
    return jsonResponse({ code: "FORBIDDEN", message: "Demo merchants are made from the dashboard's sign-in page." }, { status: 403 });
  }
  const made = await createDemoMerchant(await getDb(), { limiter: await getRateLimiter(), ip: clientIp(req) });
  if (!made.ok) {
    return jsonResponse(
      { code: "RATE_LIMITED", message: `Too many demo merchants from this address. Try again in ${describeWait(made.retryAfterSec)}.` },
      { status: 429, headers: { ...NO_STORE, "Retry-After": String(made.retryAfterSec) } },
    );
  }
  const m = made.merchant;
  await startDashboardSession({ merchantId: m.merchant_id, credentialId: m.credentialId });
  log.info({ merchant_id: m.merchant_id }, "demo merchant created (devnet), signed in on the dashboard");
  return jsonResponse(
    { merchant_id: m.merchant_id, name: m.name, balance_cents: m.balance_cents, api_id: m.api_id, api_secret: m.api_secret, api_token: m.api_token },
    { status: 201, headers: NO_STORE },
  );
});
