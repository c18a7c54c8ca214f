import { z } from "zod";
import { createDocument, type oas31, type ZodOpenApiOperationObject } from "zod-openapi";
import { usdcToDecimal } from "@/lib/platform/money";
import {
  AFFILIATE_CODE,
  createInvoiceBody,
  MAX_INVOICE_USDC,
  MIN_INVOICE_USDC,
  x402ErrorCodes,
  invoicePayBody,
  invoiceStatusQuery,
  myOrdersQuery,
  productDetailQuery,
  x402SearchQuery,
  X402_OPENAPI_PATH,
  X402_ROUTES,
  type X402RouteId,
  x402Schemas as s,
} from "@/lib/api/x402";
import { INVOICE_REFUSALS } from "@/lib/platform/errors";
import { MAX_BODY_BYTES } from "@/lib/platform/http/edge-guard";
import { DOCUMENT_OPTIONS, documentPaths, operationResponse, type ApiOperation, type ApiResponse, type OpenApiDocument } from "./common";

// The OpenAPI 3.1 document of the /x402 API, built from one table of operations (OPERATIONS below): fees, paths and
// methods come from X402_ROUTES, query and body schemas are the ones the routes validate with, response bodies are
// lib/api/x402/x402-schemas.ts. Tests check real answers against the same table (x402Response, x402ResponseSchema).

const SECURITY_SCHEMES = {
  x402Payment: {
    type: "apiKey",
    in: "header",
    name: "PAYMENT-SIGNATURE",
    description:
      "An x402 v2 payment: base64 of the PaymentPayload JSON, signed by the paying wallet for one entry of the 402's `accepts`. Call without it first: the 402 answer says what to pay (PAYMENT-REQUIRED). A micro-fee is settled only when the answer is below 400; the receipt comes back in PAYMENT-RESPONSE.",
  },
  x402PaymentV1: {
    type: "apiKey",
    in: "header",
    name: "X-PAYMENT",
    description: "The same payment as sent by x402 v1 clients: a v2 PaymentPayload, or a v1 one (`{x402Version: 1, scheme, network, payload}`).",
  },
  siwx: {
    type: "apiKey",
    in: "header",
    name: "SIGN-IN-WITH-X",
    description:
      'A wallet sign-in (CAIP-122 / SIWE): base64 JSON of the signed challenge fields (domain, address, uri, version, chainId, type, nonce, issuedAt, signature, …). The challenge comes in a 402\'s `extensions["sign-in-with-x"]`; its nonce is good once.',
  },
  accessToken: {
    type: "apiKey",
    in: "header",
    name: "X-Access-Token",
    description: "A session token from POST /x402/connect: waives micro-fees and sign-ins until it expires. It never pays an invoice.",
  },
} satisfies Record<string, oas31.SecuritySchemeObject>;

/** Who may call: security schemes, any one of which is enough. */
const anyOf = (...schemes: (keyof typeof SECURITY_SCHEMES)[]): oas31.SecurityRequirementObject[] => schemes.map((name) => ({ [name]: [] }));
const FEE_SECURITY = anyOf("x402Payment", "x402PaymentV1", "accessToken");

// --- Headers ------------------------------------------------------------------------------------------------------

const paymentResponseHeader = z.string().meta({ description: "base64 JSON of the settlement receipt: `{success, transaction, network, payer}`." });
const paidHeaders = z.object({
  "PAYMENT-RESPONSE": paymentResponseHeader
    .optional()
    .meta({ description: "When the call was paid: base64 JSON of the settlement receipt `{success, transaction, network, payer}`." }),
});
const requiredHeaders = z.object({
  "PAYMENT-REQUIRED": z.string().meta({ description: "base64 of the JSON body: the x402 payment requirements." }),
  "PAYMENT-RESPONSE": paymentResponseHeader.optional().meta({ description: "When a payment was verified but its settlement failed: the failed receipt." }),
});
const retryHeaders = z.object({
  "Retry-After": z.string().meta({ description: "Seconds to wait." }),
  "X-RateLimit-Limit": z.string().optional(),
  "X-RateLimit-Remaining": z.string().optional(),
  "X-RateLimit-Reset": z.string().optional().meta({ description: "Unix seconds." }),
});

// --- Responses ----------------------------------------------------------------------------------------------------

const PAYMENT_ERRORS = ["INVALID_PAYMENT", "UNSUPPORTED_NETWORK"] as const;

const ok = (description: string, body: z.ZodType, headers?: z.ZodObject): ApiResponse => ({ description, body, ...(headers ? { headers } : {}) });
const error = (description: string, codes: readonly [string, ...string[]], details: Record<string, z.ZodType> = {}): ApiResponse => ({
  description: `${description} Codes: ${codes.join(", ")}.`,
  body: s.errorBody(codes, details),
});

const COMMON = {
  429: { description: "Too many requests from this address or wallet.", body: s.RateLimited, headers: retryHeaders },
  500: { description: "Unexpected error on the shop's side.", body: s.InternalError },
  503: {
    description:
      "The server is shutting down and takes no new payments (`SHUTTING_DOWN`; nothing was charged), or its database is briefly unreachable (`SERVICE_UNAVAILABLE`). Try again after Retry-After.",
    body: s.Unavailable,
    headers: retryHeaders,
  },
} satisfies Record<number, ApiResponse>;

const paymentRequired = (what: string): ApiResponse => ({
  description: `Payment required: ${what} The requirements are in the PAYMENT-REQUIRED header (base64 JSON) and in the body; pay one and send the call again with PAYMENT-SIGNATURE. A payment that is invalid, replayed, beyond what its payer can cover beside its payments still being settled, or does not settle gets a 402 again, with the reason in \`error\`.`,
  body: s.PaymentRequired,
  headers: requiredHeaders,
});

const signInRequired: ApiResponse = {
  description:
    'Sign-in required, or the SIGN-IN-WITH-X sent was refused (malformed, expired, replayed, unknown nonce, wrong domain, bad signature; `error` says why; a token beside it does not save it): a 402 with an empty `accepts` and a fresh SIWX challenge in `extensions["sign-in-with-x"]`, also in PAYMENT-REQUIRED. Sign it and send the call again with SIGN-IN-WITH-X, or send X-Access-Token.',
  body: s.SignInRequired,
  headers: z.object({ "PAYMENT-REQUIRED": z.string().meta({ description: "base64 of the JSON body." }) }),
};

/** The 402 of a paid route that also takes SIGN-IN-WITH-X: the payment and a fresh sign-in challenge, side by side. */
const paymentOrSignInRequired = (what: string, signIn: string): ApiResponse => ({
  description: `Payment required: ${what} The requirements are in the PAYMENT-REQUIRED header (base64 JSON) and in the body, with a fresh sign-in challenge in \`extensions["sign-in-with-x"]\`: ${signIn} A payment that is invalid, replayed, beyond what its payer can cover beside its payments still being settled, or does not settle, or a SIGN-IN-WITH-X that is malformed or refused (even beside a valid token), gets a 402 again with the reason in \`error\` and nothing charged.`,
  body: s.PaymentOrSignInRequired,
  headers: requiredHeaders,
});

// --- Fees ---------------------------------------------------------------------------------------------------------

/** The `x-x402-fee` extension and the fee sentence of an operation, from the route's fee in X402_ROUTES. */
function fee(route: X402RouteId, waivedBy = "a valid X-Access-Token"): { extension: Record<string, unknown>; sentence: string } {
  const amount = X402_ROUTES[route].fee;
  if (amount === null) return { extension: { type: "none" }, sentence: "Fee: none." };
  return {
    extension: { type: "fixed", asset: "USDC", decimals: 6, amount: amount.toString(), amount_usdc: usdcToDecimal(amount) },
    sentence: `Fee: ${usdcToDecimal(amount)} USDC (${amount} atomic units) per call, paid with x402 on any offered network; waived by ${waivedBy}.`,
  };
}

type Spec = Omit<ZodOpenApiOperationObject, "responses" | "operationId" | "summary"> & { responses: Record<number, ApiResponse> };

/** An operation of a route in X402_ROUTES: its method, path, id and summary from there, with the fee and the common answers. */
function route(id: X402RouteId, { description, responses, ...spec }: Spec, feeInfo = fee(id)): ApiOperation {
  const r = X402_ROUTES[id];
  return {
    method: r.method,
    path: r.path,
    operation: {
      operationId: id,
      summary: r.description,
      description: [description, feeInfo.sentence].filter(Boolean).join("\n\n"),
      "x-x402-fee": feeInfo.extension,
      ...spec,
    },
    responses: {
      ...(feeInfo.extension.type === "fixed" ? ({ 409: IDENTIFIER_CONFLICT } as Record<number, ApiResponse>) : {}),
      400: EDGE_QUERY,
      ...responses,
      413: EDGE_BODY,
      ...COMMON,
    },
  };
}

/**
 * What every route refuses before anything else, as the proxy does on the shop's other paths: a query string that is
 * not valid UTF-8 or holds NUL (the 400 of a route without one of its own; `badRequest` adds it to a route's own), and
 * a body declared larger than the limit.
 */
const EDGE_QUERY_REASON = "Refused before anything else: a query string that is not valid UTF-8 or holds NUL.";
const EDGE_QUERY = error(EDGE_QUERY_REASON, ["INVALID_PARAMETER"]);
const EDGE_BODY = error(`A body declared larger than ${MAX_BODY_BYTES / 1024} KB (Content-Length), refused before it is read.`, ["PAYLOAD_TOO_LARGE"]);

/** A route's own 400: its reasons and codes, and the edge's refusal of a broken query (INVALID_PARAMETER) besides. */
function badRequest(reasons: string, codes: readonly [string, ...string[]], details: Record<string, z.ZodType> = {}): ApiResponse {
  const all = codes.includes("INVALID_PARAMETER") ? codes : ([...codes, "INVALID_PARAMETER"] as const);
  return error(`${reasons} ${EDGE_QUERY_REASON}`, all, details);
}

/** A paid call whose payment identifier (x402 `payment-identifier`) was used before with another payment or route. */
const IDENTIFIER_CONFLICT = error(
  "The payment's identifier was used before with another payment or on another route; the same payment with the same identifier gets its first answer again (200).",
  ["PAYMENT_IDENTIFIER_CONFLICT"],
);

const jsonBody = (schema: z.ZodType) => ({ required: true, content: { "application/json": { schema } } });

// --- The operations -----------------------------------------------------------------------------------------------

const searchRoute = (id: "giftCardSearch" | "esimSearch" | "topupSearch", what: string) =>
  route(id, {
    tags: ["Catalog"],
    description: `${what} Bad parameters are refused (400) before any payment.`,
    security: FEE_SECURITY,
    requestParams: { query: x402SearchQuery },
    responses: {
      200: ok("Matching products; `next_step` is the first one's detail.", s.SearchResults, paidHeaders),
      400: badRequest("A bad query parameter, or a malformed payment header.", ["INVALID_PARAMETER", ...PAYMENT_ERRORS], { networks: s.ErrorDetails.networks }),
      402: paymentRequired("the search fee."),
    },
  });

const OPERATIONS: readonly ApiOperation[] = [
  route("checkoutInfo", {
    tags: ["Catalog"],
    description: "Start here: the networks the shop takes USDC on, every route with its fee and headers, and the wallet rules.",
    security: FEE_SECURITY,
    responses: {
      200: ok("The route catalog.", s.CheckoutInfo, paidHeaders),
      400: badRequest("A malformed payment header.", PAYMENT_ERRORS, { networks: s.ErrorDetails.networks }),
      402: paymentRequired("the fee of this call."),
    },
  }),
  searchRoute("giftCardSearch", "Gift cards by brand, name or country."),
  searchRoute("esimSearch", "eSIMs by destination country or region."),
  searchRoute("topupSearch", "Mobile top-ups by operator or country."),
  route("productDetail", {
    tags: ["Catalog"],
    description:
      "A product's packages (as invoice/create takes them), its recipient rules, and a suggested line item. Bad parameters are refused (400) before any payment.",
    security: FEE_SECURITY,
    requestParams: { query: productDetailQuery },
    responses: {
      200: ok("The product.", s.ProductDetail, paidHeaders),
      400: badRequest("`slug` missing or too long, a bad `iccid`, or a malformed payment header.", ["MISSING_FIELD", "INVALID_PARAMETER", ...PAYMENT_ERRORS], {
        networks: s.ErrorDetails.networks,
      }),
      402: paymentRequired("the fee of this call."),
      404: error("No product has this slug; `suggestions` lists similar ones.", ["PRODUCT_NOT_FOUND"], { suggestions: s.ErrorDetails.suggestions }),
    },
  }),
  route("invoiceCreate", {
    tags: ["Invoices"],
    description:
      "Quotes the cart and locks its USDC price for the paying wallet until `expires_at`. With `payment_method` it is paid by a transfer to an address of its own instead (`payment`; UNSUPPORTED_PAYMENT_METHOD when this shop cannot take that method now). The paying wallet is the SIGN-IN-WITH-X wallet when one is sent, else the X-Access-Token's, else the payer of the fee. A malformed body is refused (400) before any payment; catalog refusals (unknown product or package, recipient, stock, amount) are 400 too, and the fee is then not charged.",
    security: FEE_SECURITY,
    requestParams: {
      header: z.object({
        "SIGN-IN-WITH-X": z.string().optional().meta({ description: "Names the paying wallet (see the siwx scheme); the fee is still due." }),
        "X-Service-Affiliate-Id": z.string().regex(AFFILIATE_CODE).optional().meta({
          description: "A public affiliate code, 6-16 letters and digits, case-sensitive. An unknown or malformed code is ignored, not refused.",
          example: "AGENT42x",
        }),
      }),
    },
    requestBody: jsonBody(createInvoiceBody),
    responses: {
      200: ok("The invoice; `next_step` pays it.", s.InvoiceCreated, paidHeaders),
      400: badRequest(
        "The body or the cart was refused (the field at fault is in `field`), no paying wallet, or a malformed payment header.",
        [
          "INVALID_JSON",
          "INVALID_PARAMETER",
          "TOO_MANY_ITEMS",
          "UNSUPPORTED_PAYMENT_METHOD",
          ...x402ErrorCodes([...INVOICE_REFUSALS, "unknown_gift_card", "gift_card_empty", "gift_card_unavailable"]),
          ...PAYMENT_ERRORS,
        ],
        {
          reason: s.ErrorDetails.reason,
          recipient: s.ErrorDetails.recipient,
          packages: s.ErrorDetails.packages,
          range: s.ErrorDetails.range,
          limit: s.ErrorDetails.limit,
          package_limit: s.ErrorDetails.package_limit,
          networks: s.ErrorDetails.networks,
        },
      ),
      402: paymentOrSignInRequired(
        "the fee of this call.",
        "sign it and send it in SIGN-IN-WITH-X to name the paying wallet (the fee is still due; the same signature is good for the paid retry).",
      ),
    },
  }),
  route(
    "invoicePay",
    {
      tags: ["Invoices"],
      description:
        "Pays an invoice with x402: without a payment the 402 asks for the invoice's locked price on every network it may be paid on; the paid retry is verified and settled once. An invoice already paid, or being paid, is 409: poll invoice/status instead. X-Access-Token does not pay an invoice.",
      security: anyOf("x402Payment", "x402PaymentV1"),
      requestBody: jsonBody(invoicePayBody),
      responses: {
        200: ok("The payment settled; fulfilment has started.", s.InvoicePaid, z.object({ "PAYMENT-RESPONSE": paymentResponseHeader })),
        400: badRequest(
          "No `invoice_id`, a body that is not JSON, a malformed payment header, or a payment on a network not offered.",
          ["INVALID_JSON", "MISSING_FIELD", ...PAYMENT_ERRORS],
          {
            networks: s.ErrorDetails.networks,
          },
        ),
        402: paymentRequired("the invoice's locked price."),
        404: error("No invoice has this id, or it has expired.", ["INVOICE_NOT_FOUND", "INVOICE_EXPIRED"]),
        409: error(
          "The invoice is not payable (already paid, or paid from a merchant balance), another payment of it is being settled, this payment was sent and waits for the chain (PAYMENT_PENDING: do not pay again; the invoice is paid when it lands, or payable again if it cannot), or the payment's identifier was used with another payment (PAYMENT_IDENTIFIER_CONFLICT; the same payment with the same identifier gets its first answer again).",
          ["INVOICE_NOT_PAYABLE", "PAYMENT_IN_PROGRESS", "PAYMENT_PENDING", "PAYMENT_IDENTIFIER_CONFLICT"],
          { status: s.ErrorDetails.status, transaction: s.ErrorDetails.transaction, network: s.ErrorDetails.network },
        ),
      },
    },
    {
      extension: { type: "invoice_price", asset: "USDC", decimals: 6, min_amount: MIN_INVOICE_USDC.toString(), max_amount: MAX_INVOICE_USDC.toString() },
      sentence: `Fee: the invoice's locked price, ${usdcToDecimal(MIN_INVOICE_USDC)} to ${usdcToDecimal(MAX_INVOICE_USDC)} USDC.`,
    },
  ),
  route(
    "invoiceStatus",
    {
      tags: ["Invoices"],
      description:
        "An invoice's status and orders, for whoever pays the fee. The paying wallet, proven with SIGN-IN-WITH-X (no fee) or its X-Access-Token, also gets `redemption_info` once the invoice is complete; another proven wallet gets 403.",
      security: anyOf("x402Payment", "x402PaymentV1", "accessToken", "siwx"),
      requestParams: { query: invoiceStatusQuery },
      responses: {
        200: ok("The invoice.", s.InvoiceStatusBody, paidHeaders),
        400: badRequest("`invoice_id` missing, or a malformed payment header.", ["MISSING_FIELD", ...PAYMENT_ERRORS], {
          networks: s.ErrorDetails.networks,
        }),
        402: paymentOrSignInRequired(
          "the fee of this call.",
          "sign it and send it in SIGN-IN-WITH-X instead of paying, to prove the paying wallet (no fee) and see the codes.",
        ),
        403: error("The proven wallet did not pay this invoice.", ["NOT_THE_PAYER"]),
        404: error("No invoice has this id.", ["INVOICE_NOT_FOUND"]),
      },
    },
    fee("invoiceStatus", "a valid X-Access-Token or SIGN-IN-WITH-X"),
  ),
  route("connect", {
    tags: ["Wallet"],
    description: "Signs in once: without SIGN-IN-WITH-X the 402 carries the challenge; the signed retry gets a session token for X-Access-Token.",
    security: anyOf("siwx"),
    responses: {
      200: ok("The session token.", s.Session),
      402: signInRequired,
    },
  }),
  route("myOrders", {
    tags: ["Wallet"],
    description: "The signed-in wallet's orders, newest first; an empty list for a wallet that bought nothing. Codes are read from invoice/status.",
    security: anyOf("siwx", "accessToken"),
    requestParams: { query: myOrdersQuery },
    responses: {
      200: ok("One page of orders.", s.WalletOrders),
      400: badRequest("A bad `start` or `limit`.", ["INVALID_PARAMETER"]),
      402: signInRequired,
    },
  }),
  route("myEsims", {
    tags: ["Wallet"],
    description: "The signed-in wallet's eSIMs, each with its active bundles and where to find the packages that top it up.",
    security: anyOf("siwx", "accessToken"),
    responses: {
      200: ok("The eSIMs.", s.WalletEsims),
      402: signInRequired,
    },
  }),
  {
    method: "GET",
    path: X402_OPENAPI_PATH,
    operation: {
      operationId: "openApiDocument",
      summary: "This document.",
      description: "The OpenAPI 3.1 document of the /x402 API. Fee: none.",
      tags: ["Catalog"],
      security: [],
      "x-x402-fee": { type: "none" },
    },
    responses: {
      200: ok(
        "The document.",
        z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }).meta({
          id: "OpenApiDocument",
          description: "An OpenAPI 3.1 document.",
        }),
      ),
    },
  },
];

const INFO_DESCRIPTION = `Gift cards, eSIMs and mobile top-ups for wallets, paid in USDC with the [x402](https://www.x402.org) protocol (v2; v1 clients' X-PAYMENT is accepted too). No account and no API key: the wallet is the identity.

**Flow:** search (gift-cards, esims or topups) -> products/detail -> invoice/create -> invoice/pay -> invoice/status until \`complete\`. Most answers carry a \`next_step\` with the following call.

**Paying:** a route with a fee answers 402 with the payment requirements in the PAYMENT-REQUIRED header (base64 JSON) and in the body; pay one of them and send the call again with PAYMENT-SIGNATURE. Each operation's fee is in its description and in \`x-x402-fee\` (USDC atomic units, 6 decimals). Bad parameters are refused with 400 before anything is paid, and a fee is settled only when the answer is below 400.

**Wallet:** POST /x402/connect turns one SIGN-IN-WITH-X signature into a session token; send it in X-Access-Token to skip fees and sign-ins. Only the wallet that paid an invoice sees its codes, orders and eSIMs.

**Errors:** every error but a 402 has the body \`{"code", "message", "field"?}\`; each response lists its codes. 429 \`RATE_LIMITED\` carries Retry-After.`;

let built: OpenApiDocument | undefined;

/** The OpenAPI 3.1 document of the /x402 API, served from `origin`. */
export function x402OpenApiDocument(origin: string): OpenApiDocument {
  built ??= createDocument(
    {
      openapi: "3.1.0",
      info: { title: "x402 Storefront: the wallet-paid API", version: "1.0.0", description: INFO_DESCRIPTION },
      tags: [
        { name: "Catalog", description: "Search and product detail." },
        { name: "Invoices", description: "Create, pay and follow an invoice." },
        { name: "Wallet", description: "Sign-in, and what the wallet bought." },
      ],
      paths: documentPaths(OPERATIONS),
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    DOCUMENT_OPTIONS,
  );
  return { ...built, servers: [{ url: origin }] };
}

/** The documented answer of the /x402 API to `method pathTemplate` with `status` (its body and headers), or undefined. */
export function x402Response(method: string, pathTemplate: string, status: number): ApiResponse | undefined {
  return operationResponse(OPERATIONS, method, pathTemplate, status);
}

/** The documented body of one answer of the /x402 API (e.g. `("GET", "/x402/esims/search", 402)`), or undefined. */
export function x402ResponseSchema(method: string, pathTemplate: string, status: number): z.ZodType | undefined {
  return x402Response(method, pathTemplate, status)?.body;
}

/** The error codes a documented body may carry (its `code` enum), none for a body without one (a 200, a 402). */
export function bodyCodes(body: z.ZodType | undefined): readonly string[] {
  const code = body instanceof z.ZodObject ? body.shape.code : undefined;
  return code instanceof z.ZodEnum ? (code.options as string[]) : [];
}

/**
 * Every answer the document lists, as `GET /x402/checkout/info 402`, and once more per error code it may carry, as
 * `GET /x402/checkout/info 400 INVALID_PAYMENT`: what the tests and the conformance matrix (docs/conformance.md) cover.
 */
export function documentedX402Answers(): string[] {
  return OPERATIONS.flatMap(({ method, path, responses }) =>
    Object.entries(responses).flatMap(([status, r]) => [`${method} ${path} ${status}`, ...bodyCodes(r.body).map((c) => `${method} ${path} ${status} ${c}`)]),
  );
}

/** Every documented operation, `{ method, path }`, for the tests that compare them with the route files. */
export const x402Operations = (): { method: string; path: string }[] => OPERATIONS.map(({ method, path }) => ({ method, path }));
