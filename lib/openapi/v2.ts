/**
 * The merchant API's OpenAPI 3.1 document, generated from one table of operations whose request and answer schemas are
 * the ones the routes parse with and the route tests check against (`lib/api/merchant/schemas.ts`). `v2ResponseSchema` gives
 * the tests the schema of any documented answer, so an answer the document does not describe fails a test.
 */
import { v2ErrorCodes, schemas as s } from "@/lib/api/merchant";
import { INVOICE_REFUSALS } from "@/lib/platform/errors";
import { z } from "zod";
import { createDocument, type CreateDocumentOptions, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { DOCUMENT_OPTIONS } from "./common";
import { MERCHANT_ANONYMOUS_LIMIT, MERCHANT_LIMITS, PRODUCT_QUOTA, type MerchantRouteId } from "@/lib/platform/ratelimit/policies";

type Method = "get" | "post";
type Codes = readonly [string, ...string[]];

type V2Operation = {
  method: Method;
  /** Under /api/v2, with `{id}` for the path parameter: also the rate-limit table's key. */
  path: string;
  operationId: string;
  tag: "Account" | "Catalog" | "Invoices" | "Orders" | "eSIMs" | "Webhooks" | "Gift cards";
  summary: string;
  description?: string;
  query?: z.ZodObject;
  idParam?: string;
  body?: z.ZodType;
  idempotent?: boolean;
  ok: z.ZodType;
  errors?: ErrorLists;
  /** Answers without credentials too (credentials sent are still checked): a liveness ping. */
  credentialsOptional?: boolean;
};

type ErrorLists = Partial<Record<400 | 402 | 404 | 409 | 422 | 500, Codes>>;

/** Error lists merged status by status, each code once. */
function mergeErrors(...lists: ErrorLists[]): ErrorLists {
  const merged: ErrorLists = {};
  for (const status of [400, 402, 404, 409, 422, 500] as const) {
    const codes = [...new Set(lists.flatMap((list) => list[status] ?? []))];
    if (codes.length > 0) merged[status] = codes as unknown as Codes;
  }
  return merged;
}

/** The request's own refusals (lib/checkout/merchant-api/create.ts parseInvoiceRequest), before the domain sees it. */
const REQUEST_ERRORS: ErrorLists = {
  400: ["parse_error", "missing_param", "invalid_param", "invalid_quantity", "too_many_items", "unsupported_payment_method"],
};
/** Creating an invoice: the request's refusals, the domain's (from the table), and auto_pay and Idempotency-Key's. */
const INVOICE_ERRORS = mergeErrors(REQUEST_ERRORS, v2ErrorCodes([...INVOICE_REFUSALS, "balance_too_low", "idempotency_key_in_use", "idempotency_key_reused"]));
/**
 * `POST /esims` takes eSIM products only: a phone number is never read, and an eSIM is sold in fixed packages (no
 * value range), so those refusals cannot come.
 */
const ESIM_INVOICE_ERRORS = mergeErrors(
  REQUEST_ERRORS,
  v2ErrorCodes([
    ...INVOICE_REFUSALS.filter((r) => !["invalid_phone_number", "unsupported_operator", "package_out_of_range", "amount_too_small"].includes(r)),
    "balance_too_low",
    "idempotency_key_in_use",
    "idempotency_key_reused",
  ]),
);

/** Paying from the balance: the refusals of payFromBalance (lib/checkout/pay-from-balance.ts), as the merchant API answers them. */
const PAY_ERRORS = v2ErrorCodes(["not_found", "invoice_not_payable", "balance_too_low"]);

const invoiceOne = s.envelope(s.invoiceSchema, s.idMeta);

/** Every route under /api/v2. A route file without its line here fails `v2.test.ts`. */
export const V2_OPERATIONS: readonly V2Operation[] = [
  {
    method: "get",
    path: "/ping",
    operationId: "ping",
    tag: "Account",
    summary: "Check the service, and credentials when sent",
    description:
      "Answers `pong` in both shapes existing clients read. Without an `Authorization` header it is a liveness check, " +
      "counted per client address against the same limit; credentials that are sent are checked (a wrong key is 401).",
    ok: s.pongSchema,
    credentialsOptional: true,
  },
  {
    method: "get",
    path: "/accounts/balance",
    operationId: "getBalance",
    tag: "Account",
    summary: "The balance in US cents",
    ok: s.envelope(s.balanceSchema, s.idMeta),
  },
  {
    method: "get",
    path: "/products",
    operationId: "listProducts",
    tag: "Catalog",
    summary: "The catalog, paged",
    description: "Follow `meta._next` until it is absent to read the whole catalog.",
    query: s.listQuery,
    ok: s.envelope(z.array(s.productSchema), s.productPageMeta),
    errors: { 400: ["invalid_param"] },
  },
  {
    method: "get",
    path: "/products/search",
    operationId: "searchProducts",
    tag: "Catalog",
    summary: "Search the catalog",
    description: "Typo-tolerant text search over names, brands, categories and countries; paged like `/products`.",
    query: s.searchQuery,
    ok: s.envelope(z.array(s.productSchema), s.productPageMeta),
    errors: { 400: ["missing_param", "invalid_param"] },
  },
  {
    method: "get",
    path: "/products/{id}",
    operationId: "getProduct",
    tag: "Catalog",
    summary: "One product with its packages",
    idParam: "The product's id (its slug).",
    ok: s.envelope(s.productSchema, s.idMeta),
    errors: { 404: ["not_found"] },
  },
  {
    method: "get",
    path: "/products/esims",
    operationId: "listEsimProducts",
    tag: "Catalog",
    summary: "eSIM products, paged",
    query: s.listQuery.omit({ type: true }),
    ok: s.envelope(z.array(s.productSchema), s.productPageMeta),
    errors: { 400: ["invalid_param"] },
  },
  {
    method: "get",
    path: "/products/esims/{id}",
    operationId: "getEsimProduct",
    tag: "Catalog",
    summary: "One eSIM product with its coverage and bundles",
    idParam: "The product's id.",
    ok: s.envelope(s.productSchema, s.idMeta),
    errors: { 404: ["not_found"] },
  },
  {
    method: "get",
    path: "/check_phone_number",
    operationId: "checkPhoneNumber",
    tag: "Catalog",
    summary: "Operators that serve a phone number",
    query: s.checkPhoneQuery,
    ok: s.envelope(s.phoneCheckSchema, s.idMeta),
    errors: { 400: ["missing_param", "invalid_phone_number", "unsupported_operator"] },
  },
  {
    method: "post",
    path: "/invoices",
    operationId: "createInvoice",
    tag: "Invoices",
    summary: "Create an invoice",
    description:
      "Locks the prices and reserves stock. With `payment_method: balance` and `auto_pay`, pays it at once. A `gift_card_code` pays first, with any method; the method pays the rest.",
    body: s.invoiceRequest,
    idempotent: true,
    ok: invoiceOne,
    errors: INVOICE_ERRORS,
  },
  {
    method: "get",
    path: "/invoices",
    operationId: "listInvoices",
    tag: "Invoices",
    summary: "Invoices, newest first",
    query: s.listInvoicesQuery,
    ok: s.envelope(z.array(s.invoiceSchema), s.invoicePageMeta),
    errors: { 400: ["invalid_param"] },
  },
  {
    method: "get",
    path: "/invoices/{id}",
    operationId: "getInvoice",
    tag: "Invoices",
    summary: "One invoice with its orders",
    description: "Poll it until `status` is final (`complete`, `denied`, `payment_error`), or take the webhook.",
    idParam: "The invoice's id.",
    ok: invoiceOne,
    errors: { 404: ["not_found"] },
  },
  {
    method: "post",
    path: "/invoices/{id}/pay",
    operationId: "payInvoice",
    tag: "Invoices",
    summary: "Pay an invoice from the balance",
    idParam: "The invoice's id.",
    ok: invoiceOne,
    errors: PAY_ERRORS,
  },
  {
    method: "get",
    path: "/orders",
    operationId: "listOrders",
    tag: "Orders",
    summary: "Orders, newest first",
    query: s.listOrdersQuery,
    ok: s.envelope(z.array(s.orderSchema), s.orderPageMeta),
    errors: { 400: ["invalid_param"] },
  },
  {
    method: "get",
    path: "/orders/{id}",
    operationId: "getOrder",
    tag: "Orders",
    summary: "One order, with its redemption info once delivered",
    idParam: "The order's id.",
    ok: s.envelope(s.orderSchema, s.idMeta),
    errors: { 404: ["not_found"] },
  },
  {
    method: "post",
    path: "/esims",
    operationId: "createEsimInvoice",
    tag: "eSIMs",
    summary: "Create an invoice for eSIMs or eSIM top-ups",
    body: s.invoiceRequest,
    idempotent: true,
    ok: invoiceOne,
    errors: ESIM_INVOICE_ERRORS,
  },
  {
    method: "get",
    path: "/esims",
    operationId: "listEsims",
    tag: "eSIMs",
    summary: "The eSIMs bought, newest first, with their bundles",
    query: s.listEsimsQuery,
    ok: s.envelope(z.array(s.esimSchema), s.orderPageMeta),
    errors: { 400: ["invalid_param"] },
  },
  {
    method: "get",
    path: "/esims/{id}",
    operationId: "getEsim",
    tag: "eSIMs",
    summary: "One eSIM by its ICCID",
    idParam: "The ICCID.",
    ok: s.envelope(s.esimSchema, s.idMeta),
    errors: { 404: ["not_found"] },
  },
  {
    method: "get",
    path: "/esims/invoice/{id}",
    operationId: "getEsimInvoice",
    tag: "eSIMs",
    summary: "One eSIM invoice",
    idParam: "The invoice's id.",
    ok: invoiceOne,
    errors: { 404: ["not_found"] },
  },
  {
    method: "post",
    path: "/esims/invoice/{id}/pay",
    operationId: "payEsimInvoice",
    tag: "eSIMs",
    summary: "Pay an eSIM invoice from the balance",
    idParam: "The invoice's id.",
    ok: invoiceOne,
    errors: PAY_ERRORS,
  },
  {
    method: "get",
    path: "/webhooks/deliveries",
    operationId: "listWebhookDeliveries",
    tag: "Webhooks",
    summary: "Webhook messages, newest first, with their latest attempt",
    query: s.listDeliveriesQuery,
    ok: s.envelope(z.array(s.webhookDeliverySchema), s.cursorPageMeta),
    errors: { 400: ["invalid_param"] },
  },
  {
    method: "get",
    path: "/webhooks/deliveries/{id}",
    operationId: "getWebhookDelivery",
    tag: "Webhooks",
    summary: "One webhook message with every attempt",
    idParam: "The message's id (`webhook-id`).",
    ok: s.envelope(s.webhookDeliverySchema, s.idMeta),
    errors: { 404: ["not_found"] },
  },
  {
    method: "post",
    path: "/webhooks/deliveries/{id}/redeliver",
    operationId: "redeliverWebhook",
    tag: "Webhooks",
    summary: "Send a webhook message again now",
    description: "Same `webhook-id` and payload, freshly signed. Answers the attempt.",
    idParam: "The message's id.",
    ok: s.envelope(s.redeliverySchema, s.idMeta),
    errors: { 404: ["not_found"] },
  },
  {
    method: "post",
    path: "/gift-card-batches",
    operationId: "createGiftCardBatch",
    tag: "Gift cards",
    summary: "Buy a batch of the shop's own gift cards from the balance",
    description:
      "The price (each card's value in US cents at today's rate, rounded up to the cent, times the quantity) is taken from the balance, then the cards are issued; the answer holds them with their codes. A batch still `processing` is finished in the background: read it again with `GET /gift-card-batches/{id}`. Nothing is charged when the batch is refused.",
    body: s.giftCardBatchRequest,
    idempotent: true,
    ok: s.envelope(s.giftCardBatchSchema, s.idMeta),
    errors: {
      400: ["parse_error", "missing_param", "invalid_param", "invalid_quantity", "invalid_value", "invalid_currency"],
      402: ["balance_too_low"],
      409: ["idempotency_key_in_use"],
      422: ["idempotency_key_reused"],
      500: ["batch_creation_failed"],
    },
  },
  {
    method: "get",
    path: "/gift-card-batches",
    operationId: "listGiftCardBatches",
    tag: "Gift cards",
    summary: "The gift card batches, newest first, without codes",
    query: s.listGiftCardBatchesQuery,
    ok: s.envelope(z.array(s.giftCardBatchSchema), s.cursorPageMeta),
    errors: { 400: ["invalid_param"] },
  },
  {
    method: "get",
    path: "/gift-card-batches/{id}",
    operationId: "getGiftCardBatch",
    tag: "Gift cards",
    summary: "One batch with its cards, their codes and balances",
    idParam: "The batch's id (`gcb_…`).",
    ok: s.envelope(s.giftCardBatchSchema, s.idMeta),
    errors: { 404: ["not_found"] },
  },
];

/** Answers every operation can give: bad or missing credentials, no access, a rate limit, our own failure, the database briefly away. */
const COMMON_ERRORS = {
  401: ["unauthorized"],
  403: ["forbidden"],
  429: ["too_many_requests"],
  500: ["internal_error"],
  503: ["service_unavailable"],
} as const;

const ERROR_TEXT: Record<number, string> = {
  400: "The request is not valid: `error_code` says how.",
  401: "Missing, malformed, wrong, expired or revoked credentials, or the wrong scheme for the credential.",
  402: "The balance does not cover the invoice: `required` and `available` name both amounts.",
  403: "The account is suspended or has no API access.",
  404: "Nothing of this merchant's has this id.",
  409: "The request conflicts with the current state.",
  413: "The request body is larger than 64 KB.",
  422: "The Idempotency-Key was used for another request.",
  429: "Rate limit reached: wait `Retry-After` seconds.",
  500: "Something failed on our side.",
  503: "The shop's database is briefly unreachable (a restart, a failover): wait `Retry-After` seconds and try again. A creation sent with an Idempotency-Key is answered on the retry as it ended.",
};

/**
 * Every answer's error codes for a status: the operation's own and the common ones, and 413 where the operation
 * reads a body. An operation that names its own 500 (invoice creation: `create_invoice_failed`) never answers the
 * general `internal_error`.
 */
function errorCodes(op: V2Operation): Map<number, Codes> {
  const out = new Map<number, Codes>();
  const common: [string, Codes][] = Object.entries(COMMON_ERRORS).filter(([status]) => !(status === "500" && op.errors?.[500])) as [string, Codes][];
  if (op.body) common.push(["413", ["payload_too_large"]]);
  for (const [status, codes] of [...Object.entries(op.errors ?? {}), ...common]) {
    const prev = out.get(Number(status)) ?? [];
    out.set(Number(status), [...new Set([...prev, ...(codes as Codes)])] as unknown as Codes);
  }
  return out;
}

const rateHeaders = {
  "X-RateLimit-Limit": z.string().meta({ description: "Requests allowed in the window." }),
  "X-RateLimit-Remaining": z.string().meta({ description: "Requests left in the window." }),
  "X-RateLimit-Reset": z
    .string()
    .meta({ description: "Unix seconds when the oldest request counted in the rolling window leaves it; with none remaining, when the next is possible." }),
  "RateLimit-Policy": z.string().meta({ description: 'The limits (IETF draft), e.g. `"per-endpoint";q=60;w=60`.' }),
  RateLimit: z.string().meta({ description: "The closest limit's state (IETF draft)." }),
};

function limitText(op: V2Operation): string {
  const rule = MERCHANT_LIMITS[`${op.method.toUpperCase()} ${op.path}` as MerchantRouteId];
  if (!rule) throw new Error(`No rate limit for ${op.method} ${op.path}`);
  const quota = PRODUCT_QUOTA.routes.includes(`${op.method.toUpperCase()} ${op.path}` as MerchantRouteId)
    ? ` Also counts toward ${PRODUCT_QUOTA.points} requests per hour over /products and /products/search.`
    : "";
  const anonymous = ` Requests without a valid credential (401, 403) count toward ${MERCHANT_ANONYMOUS_LIMIT.points} per ${MERCHANT_ANONYMOUS_LIMIT.durationSec} s per client address instead.`;
  return `Rate limit: ${rule.points} per ${rule.durationSec} s per account (all its keys together).${quota}${anonymous}`;
}

function operationObject(op: V2Operation): ZodOpenApiOperationObject {
  const responses: ZodOpenApiOperationObject["responses"] = {
    200: { description: "OK", headers: z.object(rateHeaders), content: { "application/json": { schema: op.ok } } },
  };
  for (const [status, codes] of errorCodes(op)) {
    // Every answer carries the limit's fields: the route's per account, or (401, 403) the per-address one.
    const headers =
      status === 429 || status === 503
        ? z.object({ ...rateHeaders, "Retry-After": z.string().meta({ description: "Seconds to wait." }) })
        : status === 401
          ? z.object({ ...rateHeaders, "WWW-Authenticate": z.string() })
          : z.object(rateHeaders);
    responses[`${status}` as `${1 | 2 | 3 | 4 | 5}${string}`] = {
      description: `${ERROR_TEXT[status] ?? "Error."} Codes: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
      headers,
      content: { "application/json": { schema: s.errorDocSchema } },
    };
  }
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: [op.description, limitText(op)].filter(Boolean).join("\n\n"),
    requestParams: {
      ...(op.query ? { query: op.query } : {}),
      ...(op.idParam ? { path: z.object({ id: z.string().meta({ description: op.idParam }) }) } : {}),
      ...(op.idempotent
        ? {
            header: z.object({
              "Idempotency-Key": z
                .string()
                .max(255)
                .optional()
                .meta({ description: "Replays the first answer for a retry of the same request; another body with the same key is refused (422)." }),
            }),
          }
        : {}),
    },
    ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: op.body } } } } : {}),
    // `{}`: no credentials is one of the ways to call it.
    ...(op.credentialsOptional ? { security: [{}, { basic: [] }, { bearer: [] }] } : {}),
    responses,
  };
}

let built: ReturnType<typeof buildDocument> | undefined;

/** The OpenAPI 3.1 document of /api/v2, with the server at `origin` (built once; only the server differs). */
export function v2OpenApiDocument(origin: string) {
  built ??= buildDocument();
  return { ...built, servers: [{ url: `${origin}/api/v2` }] };
}

function buildDocument() {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of V2_OPERATIONS) paths[op.path] = { ...paths[op.path], [op.method]: operationObject(op) };
  return createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "x402 Storefront merchant API",
        version: "2.0.0",
        description:
          "Gift cards, eSIMs and mobile top-ups for merchants: a USD balance, invoices paid from it or in USDC through x402, orders with their codes, webhooks. Every answer is `{meta, data}`; an error is `{meta, error_code, message}`. Amounts are integer US cents.",
      },
      security: [{ basic: [] }, { bearer: [] }],
      tags: [
        { name: "Account", description: "Credentials and balance." },
        { name: "Catalog", description: "Products and their packages." },
        { name: "Invoices", description: "Buy: an invoice holds the orders, paid from the balance or in USDC." },
        { name: "Orders", description: "What was bought, with codes once delivered." },
        { name: "eSIMs", description: "eSIM purchases and top-ups." },
        { name: "Webhooks", description: "The delivery log of invoice webhooks, and redelivery." },
        { name: "Gift cards", description: "The shop's own gift cards, bought in batches from the balance." },
      ],
      components: {
        securitySchemes: {
          basic: { type: "http", scheme: "basic", description: "Business credentials: `api_id` as the user, `api_secret` as the password." },
          bearer: { type: "http", scheme: "bearer", description: "A personal token (`pt_…`)." },
        },
      },
      paths,
    },
    { allowEmptySchema: { unknown: true }, override: tidy },
  );
}

/**
 * The answers are checked strictly in tests (an undocumented field fails), but the document does not promise clients
 * that no field will ever be added: `additionalProperties: false` is left out of answers.
 */
const tidy: NonNullable<CreateDocumentOptions["override"]> = (ctx) => {
  if (typeof DOCUMENT_OPTIONS.override === "function") DOCUMENT_OPTIONS.override(ctx);
  if (ctx.io === "output" && ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
};

const templates = [...V2_OPERATIONS]
  // A literal segment wins over `{id}` (`/products/esims` is not a product id).
  .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))
  .map((op) => ({ op, re: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "[^/]+")}$`) }));

/** The documented operation for a request (`GET`, `/api/v2/invoices/inv_…?x=1` or `/invoices/inv_…`). */
export function findV2Operation(method: string, path: string): V2Operation | undefined {
  const bare = path.split("?")[0]!.replace(/^\/api\/v2(?=\/)/, "");
  return templates.find((t) => t.op.method === method.toLowerCase() && t.re.test(bare))?.op;
}

/** The schema of a documented answer, or undefined when the document does not list that status for the request. */
export function v2ResponseSchema(method: string, path: string, status: number): z.ZodType | undefined {
  const op = findV2Operation(method, path);
  if (!op) return undefined;
  if (status === 200) return op.ok;
  const codes = errorCodes(op).get(status);
  return codes ? s.errorSchema(codes) : undefined;
}

/** Every answer the document lists, as `GET /products 200` or `GET /products 400 invalid_param`. */
export function documentedAnswers(): string[] {
  return V2_OPERATIONS.flatMap((op) => {
    const route = `${op.method.toUpperCase()} ${op.path}`;
    return [`${route} 200`, ...[...errorCodes(op)].flatMap(([status, codes]) => codes.map((c) => `${route} ${status} ${c}`))];
  });
}

/** Throws, naming the problem, when an answer is not the one the document describes. */
export function assertDocumentedV2(method: string, path: string, status: number, body: unknown): void {
  const schema = v2ResponseSchema(method, path, status);
  if (!schema) throw new Error(`${method} ${path} answered ${status}, which the OpenAPI document does not list`);
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new Error(
      `${method} ${path} answered ${status} unlike its OpenAPI document:\n${z.prettifyError(parsed.error)}\n${JSON.stringify(body).slice(0, 600)}`,
    );
  }
}
