import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { NetworkMode } from "./address";
import { signatureHeaders } from "./sign";
import { resolveWebhookTarget, type ResolvedAddress, type Resolver } from "./url-guard";

/** How long a receiver has to answer, from the DNS lookup to the response's status line. */
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** How much of a response body is kept in the delivery log. */
export const RESPONSE_EXCERPT_BYTES = 1024;
export const WEBHOOK_USER_AGENT = "x402-Storefront-Webhooks/1.0";

export type SendOptions = {
  mode: NetworkMode;
  timeoutMs?: number;
  resolve?: Resolver;
};

/** What one attempt got: a status code, or none and an error (timeout, refused connection, blocked address). */
export type SendResult = {
  statusCode: number | null;
  /** The first KiB of the response body, as text. */
  responseExcerpt: string | null;
  /** Why the attempt failed when the status code does not say it (no answer, a redirect, a blocked address). */
  error: string | null;
  durationMs: number;
  /** The receiver's `Retry-After`, in ms, when it sent one. */
  retryAfterMs: number | null;
};

/**
 * POSTs one signed message: `body` exactly as signed, with the Standard Webhooks headers. The URL goes through the
 * guard first and the connection is made to the addresses the guard checked (never a second lookup). Redirects are
 * not followed. Never throws: every outcome is a result to log.
 */
export async function postWebhook(msg: { url: string; id: string; body: string; secrets: string[] }, opts: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (error: string): SendResult => ({ statusCode: null, responseExcerpt: null, error, durationMs: elapsed(), retryAfterMs: null });

  const target = await Promise.race([
    resolveWebhookTarget(msg.url, opts.mode, { resolve: opts.resolve }),
    new Promise<"timeout">((resolve) => signal.addEventListener("abort", () => resolve("timeout"), { once: true })),
  ]);
  if (target === "timeout") return failure(`timed out after ${timeoutMs} ms (resolving the host)`);
  if (!target.ok) return failure(`blocked: ${target.reason}`);

  const headers = {
    ...signatureHeaders({ id: msg.id, body: msg.body, secrets: msg.secrets, timestamp: new Date() }),
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(msg.body)),
    "user-agent": WEBHOOK_USER_AGENT,
  };
  const client = target.url.protocol === "https:" ? https : http;

  return new Promise<SendResult>((resolve) => {
    let req: http.ClientRequest | undefined;
    let settled = false;
    const settle = (r: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      resolve({ ...r, durationMs: elapsed() });
      req?.destroy();
    };
    const noAnswer = (error: string) => settle({ statusCode: null, responseExcerpt: null, error, retryAfterMs: null });
    const onAbort = () => noAnswer(`timed out after ${timeoutMs} ms`);
    try {
      req = client.request(target.url, {
        method: "POST",
        headers,
        // A fresh connection per attempt, to the checked addresses only.
        agent: false,
        lookup: pinnedLookup(target.addresses),
      });
    } catch (err) {
      return noAnswer(err instanceof Error ? err.message : String(err));
    }
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    req.on("error", (err: NodeJS.ErrnoException) => noAnswer(describeError(err)));
    req.on("response", (res) => {
      const statusCode = res.statusCode ?? null;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        signal.removeEventListener("abort", done);
        const location = res.headers.location;
        settle({
          statusCode,
          responseExcerpt: excerpt(Buffer.concat(chunks)),
          error:
            statusCode !== null && statusCode >= 300 && statusCode < 400
              ? `redirect not followed${location ? ` (Location: ${location.slice(0, 200)})` : ""}`
              : null,
          retryAfterMs: retryAfterMs(res.headers["retry-after"]),
        });
      };
      // The status is the answer; a slow or endless body is cut at the first KiB or at the timeout.
      signal.removeEventListener("abort", onAbort);
      signal.addEventListener("abort", done, { once: true });
      res.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_EXCERPT_BYTES) done();
      });
      res.on("end", done);
      res.on("error", done);
      res.on("close", done);
    });
    req.end(msg.body);
  });
}

/** A lookup for the socket that answers with the guard's addresses, whatever DNS says now. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    if (wanted.length === 0) {
      callback(Object.assign(new Error("no checked address of the requested family"), { code: "ENOTFOUND" }), "", 4);
      return;
    }
    if (options.all) callback(null, wanted);
    else callback(null, wanted[0]!.address, wanted[0]!.family);
  };
}

/** The first KiB of a body as text: cut at a character boundary, without NUL (PostgreSQL text cannot hold it). */
function excerpt(body: Buffer): string | null {
  if (body.length === 0) return null;
  const text = new TextDecoder("utf-8", { fatal: false }).decode(body.subarray(0, RESPONSE_EXCERPT_BYTES));
  return text.replace(/\uFFFD$/, "").replace(/\u0000/g, "");
}

/** `Retry-After` in seconds or as an HTTP date, in ms from now; null when absent or unreadable. */
function retryAfterMs(value: string | undefined): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function describeError(err: NodeJS.ErrnoException): string {
  const words: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ECONNRESET: "connection reset",
    ENOTFOUND: "host not found",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
    ETIMEDOUT: "connection timed out",
    EPROTO: "TLS handshake failed",
  };
  const code = err.code ?? "";
  const known = words[code];
  if (known) return `${known} (${code})`;
  // TLS certificate problems carry codes such as CERT_HAS_EXPIRED or ERR_TLS_CERT_ALTNAME_INVALID.
  return code ? `${err.message} (${code})` : err.message;
}
