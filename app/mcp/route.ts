import { handleMcp, mcpMethodNotAllowed } from "@/lib/agents/mcp/server";

export const dynamic = "force-dynamic";

/** The MCP server (Streamable HTTP, stateless): the purchase path as tools, paid with x402 (lib/agents/mcp/server.ts). */
export const POST = handleMcp;
export const GET = mcpMethodNotAllowed;
export const DELETE = mcpMethodNotAllowed;
