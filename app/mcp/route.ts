import { handleMcp, mcpMethodNotAllowed } from "@/lib/agents/mcp/server";
import { guardedRoute } from "@/lib/platform/http/guarded-route";

export const dynamic = "force-dynamic";

/** The MCP server (Streamable HTTP, stateless): the purchase path as tools, paid with x402 (lib/agents/mcp/server.ts). */
export const POST = guardedRoute(handleMcp);
export const GET = guardedRoute(mcpMethodNotAllowed);
export const DELETE = guardedRoute(mcpMethodNotAllowed);
