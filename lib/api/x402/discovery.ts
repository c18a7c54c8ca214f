import { bazaarResourceServerExtension, declareDiscoveryExtension } from "@x402/extensions/bazaar";
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { z } from "zod";
import { usdcToDecimal } from "@/lib/platform/money";
import { createInvoiceBody } from "@/lib/api/x402/cart";
import { invoicePayBody, invoiceStatusQuery, productDetailQuery, x402SearchQuery } from "@/lib/api/x402/x402-query";
import { X402_OPENAPI_PATH, X402_ROUTES } from "@/lib/api/x402/x402-routes";
import * as s from "@/lib/api/x402/x402-schemas";

// Bazaar discovery (x402 `extensions.bazaar`): every paid /x402 route says in its 402 what it takes and what it
// answers, so that a facilitator's catalog (and any agent reading the 402) can call it without documentation. The
// schemas are the ones the routes validate with and the OpenAPI document shows (lib/openapi/x402.ts).

/** The routes that ask for a payment: a micro-fee, or an invoice's price. */
export const PAID_ROUTES = [
  "checkoutInfo",
  "giftCardSearch",
  "esimSearch",
  "topupSearch",
  "productDetail",
  "invoiceCreate",
  "invoiceStatus",
  "invoicePay",
] as const;
export type PaidRouteId = (typeof PAID_ROUTES)[number];

type Discovery = { query?: z.ZodType; body?: z.ZodType; example?: Record<string, unknown>; output: z.ZodType };

const SEARCH_EXAMPLES = { giftCardSearch: { q: "steam", country: "US" }, esimSearch: { q: "japan" }, topupSearch: { country: "NG" } } as const;

const DISCOVERY: Record<PaidRouteId, Discovery> = {
  checkoutInfo: { output: s.CheckoutInfo },
  giftCardSearch: { query: x402SearchQuery, example: SEARCH_EXAMPLES.giftCardSearch, output: s.SearchResults },
  esimSearch: { query: x402SearchQuery, example: SEARCH_EXAMPLES.esimSearch, output: s.SearchResults },
  topupSearch: { query: x402SearchQuery, example: SEARCH_EXAMPLES.topupSearch, output: s.SearchResults },
  productDetail: { query: productDetailQuery, example: { slug: "steam-us" }, output: s.ProductDetail },
  // (Without the gift card's fields and those of a payment by address, which the OpenAPI document shows: the 402's
  // header has to stay small.)
  invoiceCreate: {
    body: createInvoiceBody.omit({ payment_method: true, refund_address: true }),
    example: { items: [{ product_id: "steam-us", package_value: "25" }] },
    output: s.InvoiceCreated.omit({ gift_card_usdc: true, amount_due_usdc: true, status: true, payment: true }),
  },
  // (Without `payment`, settled or by address, which the OpenAPI document shows: the header has to stay small.)
  invoiceStatus: { query: invoiceStatusQuery, example: { invoice_id: "inv_01K9Z8Y7X6W5V4T3S2R1Q0P9N8" }, output: s.InvoiceStatusBody.omit({ payment: true }) },
  invoicePay: { body: invoicePayBody, example: { invoice_id: "inv_01K9Z8Y7X6W5V4T3S2R1Q0P9N8" }, output: s.InvoicePaid },
};

type Json = Record<string, unknown>;

/**
 * A zod schema as plain JSON Schema (2020-12) to embed in another: the named parts zod puts in `$defs` written in
 * place, no `$schema`. From `depth` down, objects and arrays keep only their type and description: an answer's full
 * shape is in the OpenAPI document, and a 402's header has to stay small (a proxy's default buffer for response
 * headers is 4 to 8 KB).
 */
export function embeddedSchema(schema: z.ZodType, io: "input" | "output", depth = Infinity): Json {
  const root = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  const defs = (root.$defs ?? {}) as Record<string, Json>;
  const walk = (node: unknown, level: number): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, level));
    if (!node || typeof node !== "object") return node;
    let json = node as Json;
    const ref = typeof json.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(json.$ref)?.[1] : undefined;
    if (ref !== undefined && defs[ref]) json = { ...defs[ref], ...json };
    const plain: Json = { ...json };
    for (const key of ["$ref", "$schema", "$defs", "id"]) delete plain[key];
    if (level >= depth && (plain.type === "object" || plain.type === "array")) {
      return { type: plain.type, ...(plain.description ? { description: plain.description } : {}) };
    }
    const out: Json = {};
    for (const [key, value] of Object.entries(plain)) {
      // A level is a step into an object's fields (an array's items and a union's variants are the same level).
      const deeper = key === "properties" ? level + 1 : level;
      out[key] =
        key === "properties" && value && typeof value === "object"
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, deeper)]))
          : walk(value, deeper);
    }
    return out;
  };
  return walk(root, 0) as Json;
}

const LEAN_KEYWORDS = new Set(["type", "enum", "const", "anyOf", "oneOf", "properties", "items", "required", "description"]);

/** A schema with only what says an answer's shape: types, values, required fields, and the first line of each description. */
export function lean(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lean);
  if (!schema || typeof schema !== "object") return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (!LEAN_KEYWORDS.has(key)) continue;
    if (key === "description") out[key] = String(value).split("\n")[0];
    else if (key === "properties") out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, lean(v)]));
    else out[key] = key === "enum" || key === "required" || key === "const" ? value : lean(value);
  }
  return out;
}

/** An example answer of a JSON Schema's shape: each field's own example where the schema gives one. */
export function exampleOf(schema: Json): unknown {
  if ("example" in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (variants?.[0]) return exampleOf(variants.find((v) => v.type !== "null") ?? variants[0]);
  switch (schema.type) {
    case "object":
      return Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([k, v]) => [k, exampleOf(v)]));
    case "array":
      return [];
    case "string":
      return "";
    case "integer":
    case "number":
      return 0;
    case "boolean":
      return false;
    default:
      return null;
  }
}

/** How deep an answer's schema goes in a 402: its fields, with the type and description of the objects they hold. */
const OUTPUT_DEPTH = 1;

const built = new Map<PaidRouteId, Record<string, unknown>>();

/**
 * The `extensions` of a paid route's 402: `{bazaar: {info, schema}}`, as @x402/extensions declares it, with the
 * route's method (what its resource-server hook adds over HTTP). Built once per route.
 */
export function discoveryExtensions(id: PaidRouteId): Record<string, unknown> {
  let extensions = built.get(id);
  if (!extensions) {
    const d = DISCOVERY[id];
    const method = X402_ROUTES[id].method;
    // The answer's top two levels, and an example of them (the library shows an output by its example).
    const outputSchema = embeddedSchema(d.output, "output", OUTPUT_DEPTH);
    const output = { example: exampleOf(outputSchema), schema: lean(outputSchema) as Json };
    const declared = d.body
      ? declareDiscoveryExtension({ bodyType: "json", input: d.example ?? {}, inputSchema: embeddedSchema(d.body, "input"), output })
      : declareDiscoveryExtension({
          ...(d.example ? { input: d.example } : {}),
          ...(d.query ? { inputSchema: embeddedSchema(d.query, "input") } : {}),
          output,
        });
    // The hook that adds the method over HTTP reads it from the request's context; here the route's method is known.
    const context = { method, adapter: null } as unknown as Parameters<NonNullable<typeof bazaarResourceServerExtension.enrichDeclaration>>[1];
    extensions = {
      bazaar: bazaarResourceServerExtension.enrichDeclaration!(declared.bazaar, context),
      // Idempotent paid retries: a payment may carry an id, and the same payment with the same id gets the same answer.
      [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false),
    };
    built.set(id, extensions);
  }
  return extensions;
}

/**
 * A paid route as /.well-known/x402 lists it: its absolute URL, the one form of every entry (the form's own: x402scan
 * probes each URL with GET, then POST, and clients of the document check each entry is a URL). A GET route's URL holds
 * its example query, so that a probe gets the 402 that describes it; which routes take POST, the instructions say.
 */
function resourceEntry(id: PaidRouteId, origin: string): string {
  const { method, path } = X402_ROUTES[id];
  const example = method === "GET" ? DISCOVERY[id].example : undefined;
  const query = example ? `?${new URLSearchParams(example as Record<string, string>)}` : "";
  return new URL(path + query, origin).toString();
}

/**
 * GET /.well-known/x402: the paid resources of this origin in the form discovery crawlers read (`{version: 1,
 * resources, instructions}`: x402scan's), each of which answers a 402 with its Bazaar metadata.
 */
export function wellKnownX402(origin: string) {
  const posts = PAID_ROUTES.filter((id) => X402_ROUTES[id].method === "POST").map((id) => X402_ROUTES[id].path);
  return {
    version: 1,
    resources: PAID_ROUTES.map((id) => resourceEntry(id, origin)),
    instructions: `Gift cards, eSIMs and mobile top-ups for USDC. Each resource answers a 402 whose extensions.bazaar describes its input and output; ${posts.join(" and ")} take POST with a JSON body, the others GET. How to buy, step by step: ${new URL("/llms.txt", origin)}. OpenAPI: ${new URL(X402_OPENAPI_PATH, origin)}.`,
  };
}

/** GET /llms.txt: what the shop sells and how an agent buys, in the llms.txt form (H1, summary, sections of links). */
export function llmsTxt(
  origin: string,
  networks: readonly { name: string }[],
  mcpTools: readonly string[] = [],
  /** The catalog's counts (`catalogFacts`): stated as they are now, never written down. */
  catalog?: { products: number; brands: number },
): string {
  const url = (path: string) => new URL(path, origin).toString();
  const fee = (id: keyof typeof X402_ROUTES) => {
    const r = X402_ROUTES[id];
    if (id === "invoicePay") return "the invoice's locked price";
    return r.fee === null ? "no fee" : `fee ${usdcToDecimal(r.fee)} USDC`;
  };
  const routes = (Object.keys(X402_ROUTES) as (keyof typeof X402_ROUTES)[]).map((id) => {
    const r = X402_ROUTES[id];
    return `- [${r.method} ${r.path}](${url(r.path)}): ${r.description} (${fee(id)}${"query" in r ? `; query: ${r.query.join(", ")}` : ""})`;
  });
  return [
    "# x402 Storefront",
    "",
    `> Gift cards, travel eSIMs and mobile top-ups${catalog && catalog.products > 0 ? ` (${catalog.products} products of ${catalog.brands} brands)` : ""}, paid in USDC with x402 on ${networks.map((n) => n.name).join(", ")}. No account and no API key: a wallet pays, and the wallet that pays an invoice is the one that sees its codes.`,
    "",
    "How to buy over HTTP, with any x402 v2 client (call without payment, pay what the 402 asks, call again with PAYMENT-SIGNATURE):",
    "",
    `1. Search: GET ${url(X402_ROUTES.giftCardSearch.path)}?q=steam (also esims/search, topups/search; \`country\` narrows).`,
    `2. Read a product's packages and recipient rules: GET ${url(X402_ROUTES.productDetail.path)}?slug=SLUG.`,
    `3. Quote a cart of 1 to 15 items and lock its price: POST ${url(X402_ROUTES.invoiceCreate.path)} with {"items": [{"product_id": SLUG, "package_value": VALUE}]}.`,
    `4. Pay it: POST ${url(X402_ROUTES.invoicePay.path)} with {"invoice_id": ID}; the 402 asks for the invoice's price on every network.`,
    `5. Poll GET ${url(X402_ROUTES.invoiceStatus.path)}?invoice_id=ID until \`complete\`: the paying wallet, proven with SIGN-IN-WITH-X or an X-Access-Token, gets the codes in \`redemption_info\`.`,
    "",
    `Sign in once with POST ${url(X402_ROUTES.connect.path)} (SIGN-IN-WITH-X, no fee) for an X-Access-Token: it waives the micro-fees until it expires, but never pays an invoice. Every paid route's 402 carries Bazaar discovery metadata (\`extensions.bazaar\`) with its input and output schemas.`,
    "",
    "## x402 API",
    "",
    ...routes,
    "",
    ...(mcpTools.length > 0
      ? [
          "## MCP",
          "",
          `- [MCP server](${url("/mcp")}): Streamable HTTP (POST, stateless). Tools: ${mcpTools.join(", ")}. The same fees and rules as the routes above; a paid tool called without \`_meta["x402/payment"]\` answers an error holding the PaymentRequired, the paid call's receipt is in \`_meta["x402/payment-response"]\` (the x402 MCP transport). Wallet tools take a session token as \`access_token\`.`,
          "",
        ]
      : []),
    "## Documents",
    "",
    `- [OpenAPI document of the x402 API](${url(X402_OPENAPI_PATH)}): every route, parameter, answer and error code`,
    `- [x402 discovery](${url("/.well-known/x402")}): the paid resources, for crawlers`,
    `- [The x402 API for people](${url("/docs/x402")}): the same, with examples`,
    "",
    "## Optional",
    "",
    `- [Merchant API](${url("/docs/merchant-api")}): resellers with an API key and a prepaid balance (/api/v2)`,
    "",
  ].join("\n");
}
