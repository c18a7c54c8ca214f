import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { z } from "zod";
import { usdcToDecimal } from "@/lib/platform/money";
import { config, type Config } from "@/lib/platform/config";
import { createInvoiceBody } from "@/lib/checkout";
import { publicOrigin } from "@/lib/platform/http/origin";
import { REQUEST_ID_HEADER } from "@/lib/platform/http/edge-guard";
import { PEER_HEADER } from "@/lib/platform/http/peer-address";
import { X402_HANDLERS } from "@/lib/agents/x402/handlers";
import { invoicePayBody, invoiceStatusQuery, productDetailQuery, x402SearchQuery, X402_ROUTES, type X402RouteId } from "@/lib/api/x402";

// The shop's MCP server (Streamable HTTP at /mcp, stateless): tools that mirror the purchase path. Each tool call is
// the /x402 route of the same name, called in-process with the MCP request's client address: the same fees, prices,
// limits, settlement and wallet rules, nothing computed twice. Payments follow the x402 MCP transport: a paid tool
// called without payment answers a tool error whose structuredContent is the PaymentRequired; the client calls again
// with the PaymentPayload in `_meta["x402/payment"]`; the result carries `_meta["x402/payment-response"]`.

/** Where the x402 MCP transport puts the payment and its receipt, and where a SIWX sign-in goes. */
export const PAYMENT_META = "x402/payment";
export const PAYMENT_RESPONSE_META = "x402/payment-response";
export const SIWX_META = "sign-in-with-x";

const SHOP = { name: "x402-storefront", version: "1.0.0" };

const SIGN_IN_HOW =
  'a session token (POST /x402/connect over HTTP; pass it as `access_token`, or send it on the MCP connection as `Authorization: Bearer TOKEN`), or with a signed SIWX payload (base64, as the SIGN-IN-WITH-X header takes it) in `_meta["sign-in-with-x"]`.';
const SIGN_IN = `Wallet-scoped: prove the wallet with ${SIGN_IN_HOW}`;
const PAID = (id: X402RouteId) => {
  const fee = X402_ROUTES[id].fee;
  return fee === null
    ? ""
    : ` Fee: ${usdcToDecimal(fee)} USDC per call with x402 (called without \`_meta["x402/payment"]\`, the tool answers an error holding the PaymentRequired: sign one of its accepts and call again with the PaymentPayload there), waived by a session token.`;
};
const accessToken = z.string().min(1).max(2000).optional().meta({ description: "A session token from POST /x402/connect (X-Access-Token)." });

const searchArgs = z.object({
  kind: z.enum(["gift_card", "esim", "topup"]).meta({ description: "What to search: gift cards, travel eSIMs or mobile top-ups." }),
  query: x402SearchQuery.shape.q,
  country: x402SearchQuery.shape.country,
  page: z.number().int().min(1).max(10_000).optional(),
  limit: z.number().int().min(1).max(50).optional(),
  access_token: accessToken,
});
const SEARCH_ROUTE = { gift_card: "giftCardSearch", esim: "esimSearch", topup: "topupSearch" } as const;

/** The route request a tool call makes: its route, query or body, and the session token if one was given. */
type Call = { route: X402RouteId; query?: Record<string, unknown>; body?: unknown; token?: string };

/**
 * One tool: its route (or how its arguments choose one), and whether its arguments, less `access_token`, are the
 * route's query or its JSON body (`rename` maps an argument to the route's own name for it, or to null when the route
 * takes it some other way, as search's `kind` chooses the route).
 */
type Tool = {
  name: string;
  description: string;
  input: z.ZodObject;
  route: X402RouteId | ((args: Record<string, unknown>) => X402RouteId);
  into: "query" | "body";
  rename?: Record<string, string | null>;
};

const TOOLS: readonly Tool[] = [
  {
    name: "search_products",
    description: `Search the catalog: gift cards by brand or name, eSIMs by destination, top-ups by operator or country. Each result's next_step reads its details.${PAID("giftCardSearch")}`,
    input: searchArgs,
    route: ({ kind }) => SEARCH_ROUTE[kind as keyof typeof SEARCH_ROUTE],
    into: "query",
    rename: { query: "q", kind: null },
  },
  {
    name: "get_product",
    description: `A product's packages (as create_invoice takes them), its price in USDC, what the recipient must give, and a suggested line item.${PAID("productDetail")}`,
    input: productDetailQuery.extend({ access_token: accessToken }),
    route: "productDetail",
    into: "query",
  },
  {
    name: "create_invoice",
    description: `Quote a cart of 1 to 15 items and lock its USDC price for the paying wallet until expires_at; pay it with pay_invoice. The paying wallet is the signed-in one (SIWX or session token), else the payer of the fee.${PAID("invoiceCreate")}`,
    input: createInvoiceBody.extend({ access_token: accessToken }),
    route: "invoiceCreate",
    into: "body",
  },
  {
    name: "pay_invoice",
    description:
      'Pay an invoice: called without `_meta["x402/payment"]` it answers an error holding the PaymentRequired for the invoice\'s locked price on every network it may be paid on; call again with a payment signed by the wallet the invoice was made for. Settled once: a second payment is refused. A session token never pays.',
    input: invoicePayBody,
    route: "invoicePay",
    into: "body",
  },
  {
    name: "get_invoice",
    description: `An invoice's status and orders. Once it is complete, the wallet that paid it also gets redemption_info (the codes) when signed in: ${SIGN_IN_HOW} Another wallet gets an error.${PAID("invoiceStatus")} No fee with SIWX.`,
    input: invoiceStatusQuery.extend({ access_token: accessToken }),
    route: "invoiceStatus",
    into: "query",
  },
  {
    name: "list_orders",
    description: `The signed-in wallet's orders, newest first; codes are read with get_invoice. No fee. ${SIGN_IN}`,
    input: z.object({ start: z.number().int().min(0).optional(), limit: z.number().int().min(1).max(100).optional(), access_token: accessToken }),
    route: "myOrders",
    into: "query",
  },
  {
    name: "list_esims",
    description: `The signed-in wallet's eSIMs, each with its active bundles and where to find its top-up packages. No fee. ${SIGN_IN}`,
    input: z.object({ access_token: accessToken }),
    route: "myEsims",
    into: "query",
  },
];

/** A tool's checked arguments as its route's request: `access_token` becomes the token, the rest the query or body. */
function toolCall(tool: Tool, args: Record<string, unknown>): Call {
  const { access_token, ...rest } = args;
  const route = typeof tool.route === "function" ? tool.route(rest) : tool.route;
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    const name = tool.rename && key in tool.rename ? tool.rename[key] : key;
    if (name) values[name] = value;
  }
  return { route, [tool.into]: values, token: typeof access_token === "string" ? access_token : undefined };
}

export const MCP_TOOL_NAMES = TOOLS.map((t) => t.name);

/** The headers of the MCP request that say who the client is, carried to the route the tool calls. */
const FORWARDED = [PEER_HEADER, "x-forwarded-for", "x-real-ip", REQUEST_ID_HEADER, "user-agent"];

/** The /x402 route's request for a tool call: its URL, body, the client's headers, and the payment or sign-in from `_meta`. */
function routeRequest(mcpRequest: Request, origin: string, call: Call, meta: Record<string, unknown> | undefined): Request {
  const route = X402_ROUTES[call.route];
  const url = new URL(route.path, origin);
  for (const [key, value] of Object.entries(call.query ?? {})) if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = mcpRequest.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const bearer = /^Bearer\s+(.+)$/i.exec(mcpRequest.headers.get("authorization") ?? "")?.[1];
  const token = call.token ?? mcpRequest.headers.get("x-access-token") ?? bearer;
  if (token) headers.set("X-Access-Token", token);
  const payment = meta?.[PAYMENT_META];
  if (payment && typeof payment === "object") headers.set("PAYMENT-SIGNATURE", encodePaymentSignatureHeader(payment as PaymentPayload));
  const siwx = meta?.[SIWX_META];
  if (typeof siwx === "string") headers.set("SIGN-IN-WITH-X", siwx);
  if (call.body !== undefined) headers.set("Content-Type", "application/json");
  return new Request(url, { method: route.method, headers, ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}) });
}

/** The route's answer as a tool result: its JSON as structuredContent (and text), a 4xx as a tool error, the receipt in `_meta`. */
async function toolResult(res: Response): Promise<CallToolResult> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = { message: text };
  }
  const receipt = res.headers.get("payment-response");
  const structured = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : { result: body };
  return {
    ...(res.status >= 400 ? { isError: true } : {}),
    structuredContent: structured,
    content: [{ type: "text", text: JSON.stringify(structured) }],
    ...(receipt ? { _meta: { [PAYMENT_RESPONSE_META]: decodePaymentResponseHeader(receipt) } } : {}),
  };
}

function buildServer(mcpRequest: Request): McpServer {
  const server = new McpServer(SHOP, {
    instructions:
      "Buy gift cards, eSIMs and mobile top-ups with USDC: search_products, get_product, create_invoice, pay_invoice, then get_invoice until complete for the codes. Payments use the x402 MCP transport (_meta['x402/payment']).",
  });
  const origin = publicOrigin(mcpRequest);
  // Each tool's arguments are checked against its own schema by the SDK before `call` sees them.
  const register = server.registerTool.bind(server) as unknown as (
    name: string,
    config: { description: string; inputSchema: z.ZodObject },
    cb: (args: unknown, extra: { _meta?: Record<string, unknown> }) => Promise<CallToolResult>,
  ) => void;
  for (const tool of TOOLS) {
    register(tool.name, { description: tool.description, inputSchema: tool.input }, async (args, extra) => {
      const call = toolCall(tool, args as Record<string, unknown>);
      return toolResult(await X402_HANDLERS[call.route](routeRequest(mcpRequest, origin, call, extra._meta)));
    });
  }
  return server;
}

const LOCAL_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/** The host name a Host header or an Origin names ("[::1]" for IPv6), or undefined when it names none. */
function hostnameOf(value: string | null, asOrigin: boolean): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(asOrigin ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * Who may reach /mcp (DNS rebinding protection, the MCP SDK's own: a foreign Host or Origin is answered 403): the
 * Host and Origin of PUBLIC_ORIGIN, and on the devnet (or a shop without PUBLIC_ORIGIN, which then has no public
 * name) the local names (localhost, 127.0.0.1, [::1]) at any port. The SDK compares whole values, port included, so
 * a local name is allowed as this request gives it.
 */
export function mcpAllowed(req: Request, c: Pick<Config, "publicOrigin" | "networkMode"> = config()): { allowedHosts: string[]; allowedOrigins: string[] } {
  const allowedHosts: string[] = [];
  const allowedOrigins: string[] = [];
  if (c.publicOrigin) {
    const shop = new URL(c.publicOrigin);
    allowedHosts.push(shop.host, `${shop.hostname}:${shop.port || (shop.protocol === "https:" ? "443" : "80")}`);
    allowedOrigins.push(shop.origin);
  }
  if (c.networkMode === "devnet" || !c.publicOrigin) {
    // Never an empty list: the SDK checks nothing then.
    allowedHosts.push(...LOCAL_NAMES);
    allowedOrigins.push(...LOCAL_NAMES.map((name) => `http://${name}`));
    const host = req.headers.get("host");
    const origin = req.headers.get("origin");
    if (host && LOCAL_NAMES.includes(hostnameOf(host, false) ?? "")) allowedHosts.push(host);
    if (origin && LOCAL_NAMES.includes(hostnameOf(origin, true) ?? "")) allowedOrigins.push(origin);
  }
  return { allowedHosts, allowedOrigins };
}

/**
 * POST /mcp: one JSON-RPC message (or batch) of the Streamable HTTP transport, answered as JSON. Stateless: a server
 * and a transport per request (the transport cannot be reused), nothing kept between calls. A foreign Host or Origin
 * is refused first (mcpAllowed).
 */
export async function handleMcp(req: Request): Promise<Response> {
  const server = buildServer(req);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    enableDnsRebindingProtection: true,
    ...mcpAllowed(req),
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(req);
  } finally {
    await server.close();
  }
}

/** GET and DELETE /mcp: no session and no server-sent stream in stateless mode (the MCP transport allows a 405). */
export function mcpMethodNotAllowed(): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: POST JSON-RPC messages to /mcp" }, id: null }), {
    status: 405,
    headers: { Allow: "POST", "Content-Type": "application/json" },
  });
}
