import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { usdcToDecimal } from "@/lib/platform/money";
import { orderStatus } from "@/lib/platform/db/schema";
import { MAX_MERCHANT_ITEMS } from "@/lib/checkout/merchant-api/create";
import { V2_ERRORS } from "@/lib/api/merchant/errors";
import { RATE_LIMIT_ERROR_CODE } from "@/lib/api/merchant/rate-limited";
import { myOrdersQuery } from "@/lib/api/x402/x402-query";
import { X402_ROUTES } from "@/lib/api/x402/x402-routes";
import { AFFILIATE_CODE, MAX_INVOICE_USDC, MAX_ITEMS, MAX_RECIPIENT_LENGTH, MIN_INVOICE_USDC } from "@/lib/api/x402/cart";
import { FINAL_STATUSES } from "@/lib/checkout/merchant-invoice-view";
import { documentedAnswers, V2_OPERATIONS, v2OpenApiDocument } from "@/lib/openapi/v2";
import { documentedX402Answers, x402OpenApiDocument } from "@/lib/openapi/x402";
import { MERCHANT_ANONYMOUS_LIMIT, MERCHANT_LIMITS, PRODUCT_QUOTA, X402_LIMITS } from "@/lib/platform/ratelimit/policies";
import { INVOICE_EVENT_TYPES } from "@/lib/webhooks/events";
import { WEBHOOK_TIMEOUT_MS } from "@/lib/webhooks/send";
import { signatureHeaders } from "@/lib/webhooks/sign";

// The conformance matrix (docs/conformance.md): every route, status, error code, header and limit of the two API
// specs, each with the test that produces it. The specs live outside the repository, so the items that must appear
// come from the code's own sources, which other tests keep equal to the specs (the OpenAPI documents, the error
// tables, the rate-limit policies); where a spec names something no code constant holds, it is listed below, copied
// from the spec, with its section. A row without a test, a test that does not exist, an item with no row and a row
// with no item fail this test.

const ROOT = process.cwd();
const MATRIX = "docs/conformance.md";

type Api = "merchant" | "x402";
const KINDS = ["route", "answer", "code", "limit", "header", "status", "event"] as const;
type Kind = (typeof KINDS)[number];
type Item = { api: Api; kind: Kind; item: string };

/** An item's identity: header names are case-insensitive (the spec writes `x-payment`, the code `X-PAYMENT`). */
const keyOf = ({ api, kind, item }: Item) => `${api} ${kind} ${kind === "header" ? item.toLowerCase() : item}`;
const shown = ({ api, kind, item }: Item) => `${api} ${kind} \`${item}\``;

// --- What the specs name that no code constant holds ---------------------------------------------------------------

/** merchant-api.md, "Errors": the error codes of each table (the HTTP status of each: "not shown"). */
const SPEC_MERCHANT_CODES: Record<string, readonly string[]> = {
  "Invoice creation": [
    "unsupported_payment_method",
    "missing_param",
    "parse_error",
    "not_found",
    "out_of_stock",
    "invalid_param",
    "too_many_items",
    "create_invoice_failed",
    "balance_too_low",
  ],
  Validation: ["invalid_phone_number", "unsupported_operator", "invalid_value", "invalid_package_id", "invalid_quantity"],
  "Gift card batch": ["batch_creation_failed", "invalid_quantity", "invalid_currency"],
};
/** merchant-api.md, "Errors" › "HTTP-level": 401, 403 and 429. */
const SPEC_MERCHANT_STATUSES = [401, 403, 429];
/** merchant-api.md, "Limits": "Every response carries …". */
const SPEC_MERCHANT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
/** merchant-api.md, "States and transitions": the order statuses. */
const SPEC_ORDER_STATUSES = ["delivered", "failed", "refunded"] as const;
/**
 * The merchant API's answers where no route takes the request (lib/api/merchant/route.ts merchantFallback, and the
 * proxy's refusals it answers): written there as literals, in no table.
 */
const MERCHANT_FALLBACK_CODES = ["404 not_found", "405 method_not_allowed", "400 invalid_param", "413 payload_too_large"];
/** The merchant API's OPTIONS and 405 answers name the methods a path takes (lib/api/merchant/methods.ts allowHeader). */
const MERCHANT_FALLBACK_HEADERS = ["Allow"];

/**
 * The /x402 API's answer to a body over the size limit (lib/platform/http/body.ts x402Json; the proxy's, lib/platform/http/edge-guard.ts):
 * written there as a literal, and not in the OpenAPI document.
 */
const X402_BODY_CODES = ["413 PAYLOAD_TOO_LARGE"];
/** x402-storefront.md, "Endpoints" › "Common request headers", and "Authentication" (1: the 402's header). */
const SPEC_X402_HEADERS = ["PAYMENT-SIGNATURE", "x-payment", "X-Access-Token", "SIGN-IN-WITH-X", "X-Service-Affiliate-Id", "PAYMENT-REQUIRED"];
/** x402-storefront.md, "Endpoints" › "Route details": each route's statuses. */
const SPEC_X402_STATUSES: Record<string, readonly number[]> = {
  "GET /x402/checkout/info": [200, 402, 500],
  "GET /x402/gift-cards/search": [200, 402, 500],
  "GET /x402/esims/search": [200, 402, 500],
  "GET /x402/topups/search": [200, 402, 500],
  "GET /x402/products/detail": [200, 400, 402, 404, 500],
  "POST /x402/invoice/create": [200, 400, 402, 500],
  "POST /x402/invoice/pay": [200, 400, 402, 404, 409, 500],
  "GET /x402/invoice/status": [200, 400, 402, 403, 404, 500],
  "POST /x402/connect": [200, 402, 500],
  "GET /x402/my/orders": [200, 402, 500],
  "GET /x402/my/esims": [200, 402, 500],
};
/** x402-storefront.md, "Errors": the two code names it gives. */
const SPEC_X402_CODES = ["MISSING_FIELD", "MISSING_IDENTITY"];

// --- What the shop does not produce: listed here, and in the matrix's own section, never as a passing row ----------

type Exception = Item & { why: string };

/**
 * Items of the specs or of the code's sources that no test produces, because the shop does not. A spec's error code is
 * named `<section>: <code>`.
 */
const EXCEPTIONS: readonly Exception[] = [];

// --- The items the matrix must hold, from the code's sources ------------------------------------------------------

type OpenApiDoc = {
  paths?: Record<string, Record<string, { parameters?: { in: string; name: string }[]; responses?: Record<string, { headers?: Record<string, unknown> }> }>>;
  components?: { securitySchemes?: Record<string, { type: string; in?: string; name?: string; scheme?: string }> };
};

/** Every header an OpenAPI document names: request header parameters, security schemes in headers, response headers. */
function documentHeaders(doc: OpenApiDoc): string[] {
  const names = new Set<string>();
  for (const scheme of Object.values(doc.components?.securitySchemes ?? {})) {
    if (scheme.type === "http") names.add("Authorization");
    if (scheme.type === "apiKey" && scheme.in === "header" && scheme.name) names.add(scheme.name);
  }
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      for (const p of op.parameters ?? []) if (p.in === "header") names.add(p.name);
      for (const r of Object.values(op.responses ?? {})) for (const h of Object.keys(r.headers ?? {})) names.add(h);
    }
  }
  return [...names];
}

const rule = (r: { points: number; durationSec: number }) => `${r.points}/${r.durationSec}s`;

/** `400 parse_error` for every `METHOD path 400 parse_error` of a list of documented answers. */
const codesOf = (answers: string[]) => answers.map((a) => a.split(" ")).flatMap((p) => (p.length === 4 ? [`${p[2]} ${p[3]}`] : []));

function requiredItems(): Item[] {
  const merchant = (kind: Kind, items: Iterable<string>) => [...items].map((item): Item => ({ api: "merchant", kind, item }));
  const x402 = (kind: Kind, items: Iterable<string>) => [...items].map((item): Item => ({ api: "x402", kind, item }));
  const orders = z.toJSONSchema(myOrdersQuery, { io: "input" }) as { properties: Record<string, { minimum?: number; maximum?: number; default?: number }> };
  const { start, limit } = orders.properties;
  const signature = signatureHeaders({ id: "msg_1", body: "{}", secrets: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], timestamp: new Date() });
  const x402Answers = documentedX402Answers();
  const all = [
    // The merchant API: its operations, the error codes it answers with their status, its limits, headers, statuses, events.
    ...merchant(
      "route",
      V2_OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`),
    ),
    ...merchant(
      "code",
      new Set([
        ...codesOf(documentedAnswers()),
        ...Object.values(V2_ERRORS).map((e) => `${e.status} ${e.code}`),
        `429 ${RATE_LIMIT_ERROR_CODE}`,
        ...MERCHANT_FALLBACK_CODES,
      ]),
    ),
    ...merchant("limit", [
      ...Object.entries(MERCHANT_LIMITS).map(([route, r]) => `${route} ${rule(r)}`),
      `${PRODUCT_QUOTA.name} ${rule(PRODUCT_QUOTA)} over ${PRODUCT_QUOTA.routes.join(", ")}`,
      `${MERCHANT_ANONYMOUS_LIMIT.name} ${rule(MERCHANT_ANONYMOUS_LIMIT)} per client address`,
      `items per invoice ≤ ${MAX_MERCHANT_ITEMS}`,
      `webhook answer within ${WEBHOOK_TIMEOUT_MS / 1000}s`,
    ]),
    ...merchant(
      "header",
      new Set([...documentHeaders(v2OpenApiDocument("http://shop.test") as OpenApiDoc), ...MERCHANT_FALLBACK_HEADERS, ...Object.keys(signature)]),
    ),
    ...merchant("status", [...FINAL_STATUSES.map((s) => `invoice ${s}`), ...SPEC_ORDER_STATUSES.map((s) => `order ${s}`)]),
    ...merchant("event", INVOICE_EVENT_TYPES),
    // The /x402 API: each route's documented statuses, the error codes with their status, its limits and headers.
    ...x402(
      "answer",
      x402Answers.filter((a) => a.split(" ").length === 3),
    ),
    ...x402("code", new Set([...codesOf(x402Answers), ...X402_BODY_CODES])),
    ...x402("limit", [
      ...Object.values(X402_LIMITS).map((p) => `${p.name} ${rule(p)}`),
      ...Object.values(X402_ROUTES).flatMap((r) => (r.fee === null ? [] : [`${r.method} ${r.path} fee ${usdcToDecimal(r.fee)} USDC`])),
      `invoice/pay amount ${usdcToDecimal(MIN_INVOICE_USDC)}-${usdcToDecimal(MAX_INVOICE_USDC)} USDC`,
      `items 1-${MAX_ITEMS}`,
      `refill_input ≤ ${MAX_RECIPIENT_LENGTH} characters`,
      `my/orders limit ${limit?.minimum}-${limit?.maximum}, default ${limit?.default}`,
      `my/orders start ≥ ${start?.minimum}, default ${start?.default}`,
      `X-Service-Affiliate-Id ${AFFILIATE_CODE.source}`,
    ]),
    ...x402(
      "header",
      new Set([...documentHeaders(x402OpenApiDocument("http://shop.test") as OpenApiDoc), ...Object.values(X402_ROUTES).flatMap((r) => r.headers)]),
    ),
  ];
  // Header names once each, whatever their case.
  return [...new Map(all.map((i) => [keyOf(i), i])).values()];
}

// --- Reading the matrix -------------------------------------------------------------------------------------------

type TestRef = { file: string; title: string };
type Row = Item & { line: number; spec: string; tests: TestRef[] };
type Matrix = { rows: Row[]; exceptions: (Item & { line: number })[]; problems: string[] };

const SECTIONS: [prefix: string, section: Api | "exceptions"][] = [
  ["## Merchant API", "merchant"],
  ["## Wallet-paid API", "x402"],
  ["## Not yet produced", "exceptions"],
];

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((c) => c.trim());

/**
 * The rows of the matrix: under "## Merchant API" and "## Wallet-paid API", `| Kind | Item | Spec | Test |` with the
 * item in backticks and one or more tests written `` `file` › `title` ``; under "## Not yet produced",
 * `| API | Kind | Item | Why |`.
 */
function readMatrix(markdown: string): Matrix {
  const rows: Row[] = [];
  const exceptions: (Item & { line: number })[] = [];
  const problems: string[] = [];
  let section: Api | "exceptions" | undefined;
  for (const [i, raw] of markdown.split("\n").entries()) {
    const line = i + 1;
    if (raw.startsWith("## ")) section = SECTIONS.find(([prefix]) => raw.startsWith(prefix))?.[1];
    if (!raw.trimStart().startsWith("|")) continue;
    const cells = cellsOf(raw);
    if (/^:?-+:?$/.test(cells[0] ?? "") || ["Kind", "API"].includes(cells[0] ?? "")) continue;
    if (!section) {
      problems.push(`${MATRIX}:${line}: a table row outside the API sections and the exceptions`);
      continue;
    }
    const api = section === "exceptions" ? cells[0] : section;
    const [kind, itemCell, third] = section === "exceptions" ? cells.slice(1) : cells;
    const item = /^`([^`]+)`$/.exec(itemCell ?? "")?.[1];
    if (api !== "merchant" && api !== "x402") {
      problems.push(`${MATRIX}:${line}: API ${JSON.stringify(api)} is neither merchant nor x402`);
      continue;
    }
    if (!KINDS.includes(kind as Kind)) {
      problems.push(`${MATRIX}:${line}: kind ${JSON.stringify(kind)} is not one of ${KINDS.join(", ")}`);
      continue;
    }
    if (!item) {
      problems.push(`${MATRIX}:${line}: the item is not written in backticks`);
      continue;
    }
    if (section === "exceptions") {
      exceptions.push({ api, kind: kind as Kind, item, line });
      continue;
    }
    const tests = [...(cells[3] ?? "").matchAll(/`([^`]+)`\s*›\s*`([^`]+)`/g)].map((m) => ({ file: m[1]!, title: m[2]! }));
    rows.push({ api, kind: kind as Kind, item, line, spec: third ?? "", tests });
  }
  return { rows, exceptions, problems };
}

// --- Finding the tests --------------------------------------------------------------------------------------------

/** Where the test runners look (vitest.config.mts, e2e/playwright.config.ts): a test anywhere else never runs. */
const RUN = [/^(lib|components|scripts)\/.+\.test\.ts$/, /^e2e\/.+\.spec\.ts$/];

const titleCache = new Map<string, string[] | undefined>();

/** The titles of the `it(…)` and `test(…)` calls of a test file, as written (a template literal's `${…}` kept). */
function testTitles(file: string): string[] | undefined {
  if (!titleCache.has(file)) {
    const full = path.join(ROOT, file);
    const source = fs.existsSync(full) ? fs.readFileSync(full, "utf8") : undefined;
    titleCache.set(file, source === undefined ? undefined : [...source.matchAll(/\b(?:it|test)\(\s*(["'`])((?:\\.|(?!\1)[^\\])*)\1/g)].map((m) => m[2]!));
  }
  return titleCache.get(file);
}

/** Why a test reference names no test (undefined when it names one): its title in full, or the start of exactly one. */
function refProblem({ file, title }: TestRef): string | undefined {
  if (!RUN.some((re) => re.test(file))) return `${file} is not a file the test runners run`;
  const titles = testTitles(file);
  if (!titles) return `${file} does not exist`;
  if (titles.includes(title)) return undefined;
  const starting = titles.filter((t) => t.startsWith(title));
  if (starting.length === 1) return undefined;
  return starting.length === 0 ? `${file} has no test titled "${title}"` : `"${title}" starts ${starting.length} tests of ${file}`;
}

// --- The check ----------------------------------------------------------------------------------------------------

/** Everything wrong with a matrix, as sentences; none when every item has a row with a real test, and no row is stale. */
function matrixProblems(markdown: string): string[] {
  const { rows, exceptions, problems } = readMatrix(markdown);
  const required = requiredItems();
  const requiredKeys = new Set(required.map(keyOf));
  const rowKeys = new Map<string, Row>();
  const specCodeKeys = new Set(
    Object.entries(SPEC_MERCHANT_CODES).flatMap(([section, codes]) => codes.map((c) => keyOf({ api: "merchant", kind: "code", item: `${section}: ${c}` }))),
  );
  const excepted = new Set(EXCEPTIONS.map(keyOf));

  for (const row of rows) {
    const key = keyOf(row);
    if (rowKeys.has(key)) problems.push(`${MATRIX}:${row.line}: ${shown(row)} has a row already (line ${rowKeys.get(key)!.line})`);
    rowKeys.set(key, row);
    if (!requiredKeys.has(key)) problems.push(`${MATRIX}:${row.line}: ${shown(row)} is no item of the code's sources: a stale row`);
    if (excepted.has(key)) problems.push(`${MATRIX}:${row.line}: ${shown(row)} is listed as not produced: it cannot pass too`);
    if (!row.spec) problems.push(`${MATRIX}:${row.line}: ${shown(row)} names no spec line or section`);
    if (row.tests.length === 0) problems.push(`${MATRIX}:${row.line}: ${shown(row)} names no test`);
    for (const ref of row.tests) {
      const problem = refProblem(ref);
      if (problem) problems.push(`${MATRIX}:${row.line}: ${shown(row)}: ${problem}`);
    }
  }

  // Every item has its row, or is listed as not produced.
  const missing = required.filter((i) => !rowKeys.has(keyOf(i)) && !excepted.has(keyOf(i)));
  if (missing.length > 0) problems.push(`items without a row in ${MATRIX}:\n${missing.map((i) => `  | ${i.kind} | \`${i.item}\` | (${i.api})`).join("\n")}`);

  // What the specs name: each of their error codes, statuses and headers has a row (or is listed as not produced).
  const codeRows = (api: Api) => rows.filter((r) => r.api === api && r.kind === "code").map((r) => r.item.split(" "));
  for (const [section, codes] of Object.entries(SPEC_MERCHANT_CODES)) {
    for (const code of codes) {
      const named = keyOf({ api: "merchant", kind: "code", item: `${section}: ${code}` });
      if (!excepted.has(named) && !codeRows("merchant").some(([, c]) => c === code)) {
        problems.push(`merchant-api.md, Errors › ${section}: ${code} has no code row`);
      }
    }
  }
  for (const status of SPEC_MERCHANT_STATUSES) {
    if (!codeRows("merchant").some(([s]) => s === String(status))) problems.push(`merchant-api.md, Errors › HTTP-level: ${status} has no code row`);
  }
  for (const status of SPEC_ORDER_STATUSES) {
    if (!(orderStatus.enumValues as readonly string[]).includes(status)) problems.push(`merchant-api.md, States: the shop has no order status ${status}`);
  }
  for (const code of SPEC_X402_CODES) {
    if (!codeRows("x402").some(([, c]) => c === code)) problems.push(`x402-storefront.md, Errors: ${code} has no code row`);
  }
  for (const [route, statuses] of Object.entries(SPEC_X402_STATUSES)) {
    for (const status of statuses) {
      const item: Item = { api: "x402", kind: "answer", item: `${route} ${status}` };
      if (!requiredKeys.has(keyOf(item))) problems.push(`x402-storefront.md, Route details: ${route} ${status} is not in the /x402 OpenAPI document`);
      else if (!rowKeys.has(keyOf(item))) problems.push(`x402-storefront.md, Route details: ${route} ${status} has no row`);
    }
  }
  for (const [api, spec, headers] of [
    ["merchant", "merchant-api.md, Limits", SPEC_MERCHANT_HEADERS],
    ["x402", "x402-storefront.md, Common request headers", SPEC_X402_HEADERS],
  ] as const) {
    for (const header of headers) {
      if (!rowKeys.has(keyOf({ api, kind: "header", item: header }))) problems.push(`${spec}: the header ${header} has no row`);
    }
  }

  // The exceptions: the same list in the matrix as here, each a real item, none stale.
  const listed = new Set(exceptions.map(keyOf));
  for (const e of EXCEPTIONS) {
    if (!listed.has(keyOf(e))) problems.push(`${shown(e)} is not produced (${e.why}): list it under "## Not yet produced" in ${MATRIX}`);
    if (!requiredKeys.has(keyOf(e)) && !specCodeKeys.has(keyOf(e))) problems.push(`the exception ${shown(e)} is no item of the specs or the code: drop it`);
  }
  for (const e of exceptions) {
    if (!excepted.has(keyOf(e))) problems.push(`${MATRIX}:${e.line}: ${shown(e)} is listed as not produced, but the test's EXCEPTIONS do not list it`);
  }
  return problems;
}

describe("the conformance matrix (docs/conformance.md)", () => {
  const markdown = fs.readFileSync(path.join(ROOT, MATRIX), "utf8");

  it("has a row for every route, status, error code, header and limit of both APIs, each with a test that exists, and no stale row", () => {
    expect(matrixProblems(markdown)).toEqual([]);
  });

  it("lists what the shop does not produce apart, never as a passing row", () => {
    const { rows, exceptions } = readMatrix(markdown);
    expect(exceptions.map(keyOf).sort()).toEqual(EXCEPTIONS.map(keyOf).sort());
    expect(rows.length).toBeGreaterThan(requiredItems().length - EXCEPTIONS.length - 1);
  });

  it("fails a matrix with an item missing, a stale row, a row without a test, or a test that does not exist", () => {
    const lines = markdown.split("\n");
    const at = (item: string) => lines.findIndex((l) => l.includes(`| \`${item}\` |`));
    const ping = at("GET /ping");
    const balance = at("GET /accounts/balance");
    const finalStatus = at("invoice complete");
    expect([ping, balance, finalStatus].every((i) => i >= 0)).toBe(true);
    const broken = [...lines];
    broken[ping] = "";
    broken[balance] = broken[balance]!.replace(/\|[^|]*\|\s*$/, "| |");
    broken[finalStatus] = broken[finalStatus]!.replace(/›\s*`[^`]+`/, "› `a test nobody wrote`");
    broken.push(
      "",
      "## Wallet-paid API, again",
      "",
      "| Kind | Item | Spec | Test |",
      "|---|---|---|---|",
      "| route | `GET /x402/gone` | — | `lib/nowhere.test.ts` › `x` |",
    );
    const problems = matrixProblems(broken.join("\n"));
    expect(problems.find((p) => p.startsWith("items without a row"))).toContain("| route | `GET /ping` | (merchant)");
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/merchant route `GET \/accounts\/balance` names no test$/),
        expect.stringMatching(/merchant status `invoice complete`: .* has no test titled "a test nobody wrote"$/),
        expect.stringMatching(/x402 route `GET \/x402\/gone` is no item of the code's sources: a stale row$/),
        expect.stringMatching(/x402 route `GET \/x402\/gone`: lib\/nowhere.test.ts does not exist$/),
      ]),
    );
  });
});
