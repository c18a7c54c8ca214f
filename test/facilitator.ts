// For tests: a hosted facilitator on loopback that wants credentials, as CDP's does, in front of a real one.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { FacilitatorClient } from "@x402/core/server";
import { decodeProtectedHeader, importJWK, jwtVerify, type JWK } from "jose";

/** What the stand-in asks of each call: a header line, or a CDP JWT signed by the key whose public half it holds. */
export type Credentials = { kind: "header"; name: string; value: string } | { kind: "cdp"; keyId: string; publicJwk: JWK; alg: "EdDSA" | "ES256" };

export type StandIn = {
  /** FACILITATOR_URL of the stand-in: a path under it, as CDP's (`/platform/v2/x402`). */
  url: string;
  /** Each call as it came: method, path, and whether its credentials passed (a refused call is answered 401). */
  calls: { method: string; path: string; accepted: boolean; reason?: string }[];
  close(): Promise<void>;
};

const BASE = "/platform/v2/x402";

/**
 * Serves /verify, /settle and /supported of `inner` (e.g. the in-process facilitator over the devnet's chains) under
 * /platform/v2/x402, answering 401 to any call without the credentials. A CDP JWT must be signed by the key, name the
 * key (`kid`, `sub`), come from "cdp", last at most two minutes, and hold exactly this call in `uris`
 * ("METHOD host/path"): a token made for another call is refused.
 */
export async function standInFacilitator(inner: FacilitatorClient, credentials: Credentials): Promise<StandIn> {
  const calls: StandIn["calls"] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const method = req.method ?? "GET";
      const path = new URL(req.url ?? "/", "http://stand-in").pathname;
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const refusal = await refused(req, method, path, credentials);
      calls.push({ method, path, accepted: !refusal, ...(refusal ? { reason: refusal } : {}) });
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (refusal) return answer(401, { error: "unauthorized", message: refusal });
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { paymentPayload: never; paymentRequirements: never }) : undefined;
      if (method === "GET" && path === `${BASE}/supported`) return answer(200, await inner.getSupported());
      if (method === "POST" && path === `${BASE}/verify` && body) return answer(200, await inner.verify(body.paymentPayload, body.paymentRequirements));
      if (method === "POST" && path === `${BASE}/settle` && body) return answer(200, await inner.settle(body.paymentPayload, body.paymentRequirements));
      answer(404, { error: "not_found" });
    })().catch((err: unknown) => {
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: (err as Error).message }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${BASE}`, calls, close: () => new Promise<void>((r) => server.close(() => r())) };
}

async function refused(req: http.IncomingMessage, method: string, path: string, credentials: Credentials): Promise<string | undefined> {
  if (credentials.kind === "header") {
    return req.headers[credentials.name.toLowerCase()] === credentials.value ? undefined : `no ${credentials.name} header with the key`;
  }
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  if (!token) return "no bearer token";
  try {
    const key = await importJWK(credentials.publicJwk, credentials.alg);
    const { payload } = await jwtVerify(token, key, { issuer: "cdp", subject: credentials.keyId, algorithms: [credentials.alg], maxTokenAge: "2m" });
    if (decodeProtectedHeader(token).kid !== credentials.keyId) return "the token names another key";
    if (typeof payload.exp !== "number" || typeof payload.iat !== "number" || payload.exp - payload.iat > 120) return "the token lasts too long";
    const uri = `${method} ${req.headers.host}${path}`;
    if (JSON.stringify(payload.uris) !== JSON.stringify([uri])) return `the token is for ${JSON.stringify(payload.uris)}, not ${uri}`;
    return undefined;
  } catch (err) {
    return `the token does not verify: ${(err as Error).message}`;
  }
}
