import { config } from "@/lib/platform/config";
import { getDb } from "@/lib/platform/db";
import { jsonResponse } from "@/lib/platform/http/api-error";
import { BodyError, readText } from "@/lib/platform/http/body";
import { guardedRoute } from "@/lib/platform/http/guarded-route";
import { receiveUpstreamWebhook } from "@/lib/supply/webhook";

export const dynamic = "force-dynamic";

/**
 * The upstream supplier's webhook (UPSTREAM_WEBHOOK_SECRET): a final invoice, signed (Standard Webhooks). 204 once
 * taken; 503 (the upstream retries) when it names an invoice this shop has not recorded yet while a purchase waits for
 * its answer; 401 when its signature does not verify; 404 when no upstream webhook is configured.
 */
export const POST = guardedRoute(async (req: Request) => {
  const hook = config().upstream?.webhook;
  if (!hook) return jsonResponse({ error_code: "not_found", message: "No upstream webhook is configured." }, { status: 404 });
  let body: string;
  try {
    body = await readText(req);
  } catch (err) {
    if (err instanceof BodyError) return jsonResponse({ error_code: "parse_error", message: err.message }, { status: err.status });
    throw err;
  }
  const receipt = await receiveUpstreamWebhook(await getDb(), hook.secret, body, req.headers);
  if (!receipt.accepted) return jsonResponse({ error_code: "invalid_signature", message: "The webhook's signature does not verify." }, { status: 401 });
  if ("early" in receipt) {
    return jsonResponse(
      { error_code: "not_ready", message: "The invoice is not recorded here yet: send it again." },
      { status: 503, headers: { "Retry-After": "1" } },
    );
  }
  return new Response(null, { status: 204 });
});
