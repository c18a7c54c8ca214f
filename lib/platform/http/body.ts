import { ApiError } from "./api-error";
import { MAX_BODY_BYTES, strictUtf8, textProblem } from "./edge-guard";

/** A request body the shop does not read: too large (413), not UTF-8 JSON, or holding text PostgreSQL cannot store. */
export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
    this.name = "BodyError";
  }
}

const MAX_DEPTH = 16;

/**
 * Reads a request's body as text, at most MAX_BODY_BYTES (a longer body is refused with 413 as soon as it passes the
 * limit, whatever Content-Length said), strictly as UTF-8. Reads a clone: the request stays readable. Empty: "".
 */
export async function readText(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const body = req.clone().body;
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not awaited: a clone's branch is cancelled for good only once the request's own branch is too.
      void reader.cancel().catch(() => {});
      throw new BodyError(413, `The request body is larger than ${limit / 1024} KB.`);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  try {
    return strictUtf8.decode(all);
  } catch {
    throw new BodyError(400, "The request body is not valid UTF-8.");
  }
}

/**
 * Reads a JSON body (see readText): `undefined` when empty, else the parsed value. Refused with 400: text that is not
 * JSON, nesting deeper than 16, and any string or key with a NUL character or a lone surrogate (`"\u0000"`,
 * `"\ud800"`), which PostgreSQL refuses to store.
 */
export async function readJson(req: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  const text = await readText(req, limit);
  if (text.trim() === "") return undefined;
  return parseJsonText(text);
}

/** A body already read as text, parsed with readJson's rules (a refusal is a BodyError, 400). */
export function parseJsonText(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BodyError(400, "The request body is not valid JSON.");
  }
  const problem = jsonProblem(value);
  if (problem) throw new BodyError(400, `The request body ${problem}.`);
  return value;
}

/** Why a parsed JSON value is refused (too deep, or a string or key that is not storable text), or undefined. */
export function jsonProblem(value: unknown): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === "string") {
      const p = textProblem(v);
      if (p) return `has a text that ${p}`;
    } else if (v !== null && typeof v === "object") {
      if (depth >= MAX_DEPTH) return `is nested deeper than ${MAX_DEPTH} levels`;
      for (const [k, child] of Object.entries(v)) {
        const p = textProblem(k);
        if (p) return `has a field name that ${p}`;
        stack.push([child, depth + 1]);
      }
    }
  }
  return undefined;
}

/**
 * A JSON body of the /x402 API or the dashboard's JSON routes (lib/platform/http/body.ts limits): a refusal is an ApiError,
 * 413 `PAYLOAD_TOO_LARGE` or 400 `INVALID_JSON` with `hint`, the shape the body should have.
 */
export async function x402Json(req: Request, hint: string): Promise<unknown> {
  try {
    const json = await readJson(req);
    if (json === undefined) throw new BodyError(400, "The request body is empty.");
    return json;
  } catch (err) {
    if (!(err instanceof BodyError)) throw err;
    if (err.status === 413) throw new ApiError(413, "PAYLOAD_TOO_LARGE", err.message);
    throw new ApiError(400, "INVALID_JSON", `${err.message} ${hint}`);
  }
}
