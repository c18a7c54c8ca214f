import { catalogFacts } from "@/lib/catalog";
import { publicOrigin } from "@/lib/platform/http/origin";
import { MCP_TOOL_NAMES } from "@/lib/agents/mcp/server";
import { llmsTxt } from "@/lib/api/x402/discovery";
import { getPayments } from "@/lib/payments/payments";
import { guardedRoute } from "@/lib/platform/http/guarded-route";

export const dynamic = "force-dynamic";

/** What the shop sells and how an agent buys, for language models (llms.txt). Free. */
export const GET = guardedRoute(async (req: Request) => {
  const [{ networks }, facts] = await Promise.all([getPayments(), catalogFacts()]);
  return new Response(llmsTxt(publicOrigin(req), networks, MCP_TOOL_NAMES, facts), {
    headers: { "Content-Type": "text/markdown; charset=utf-8", "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=300" },
  });
});
