import http from "node:http";
import https from "node:https";

/** The largest answer taken from a node, as viem's own limit (10 MB): a larger one fails the call. */
export const RPC_MAX_ANSWER_BYTES = 10 * 1024 * 1024;

// Connections to the nodes are kept open between calls (a burst of settlements makes many small ones).
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/** Statuses whose answer may carry no body (a Response refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * The `fetchFn` of the settlement client's JSON-RPC transport (viem's `http` transport): a POST over node:http with
 * kept-alive connections, its answer read whole and handed back as a `Response`. The global fetch is the costlier
 * road for these small calls: in the server Next.js wraps it (its data cache and tracing) and undici builds web
 * streams for every request, which under a burst of payments took a measurable share of the shop's CPU. Aborting
 * through `init.signal` (viem's timeout) ends the request.
 */
export function rpcFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const secure = url.protocol === "https:";
  if (!secure && url.protocol !== "http:") return Promise.reject(new TypeError(`rpcFetch takes http(s) URLs, not ${url.protocol}`));
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, key) => (headers[key] = value));
  const body = typeof init.body === "string" ? init.body : init.body == null ? undefined : String(init.body);
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  return new Promise<Response>((resolve, reject) => {
    const req = (secure ? https : http).request(
      url,
      { method: init.method ?? "GET", headers, agent: secure ? agents.https : agents.http, signal: init.signal ?? undefined },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > RPC_MAX_ANSWER_BYTES) req.destroy(new Error(`The node's answer is larger than ${RPC_MAX_ANSWER_BYTES} bytes`));
          else chunks.push(chunk);
        });
        res.on("error", reject);
        res.on("end", () => {
          const status = res.statusCode ?? 502;
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) answerHeaders.append(name, v);
          }
          resolve(new Response(NO_BODY.has(status) ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage, headers: answerHeaders }));
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
