import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/scripts/shop-server";

const ADMIN_TOKEN = "upstream-test-admin-token-0123456789";
/** What the upstream shop prints once it answers. */
export const READY = "upstream-shop-ready";

export type UpstreamShop = {
  /** The shop's origin and its merchant API's base URL (`…/api/v2`). */
  origin: string;
  apiUrl: string;
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /** A merchant with API access and `creditUsd` on its balance: its business key. */
  newMerchant(creditUsd: number): Promise<{ merchantId: string; id: string; secret: string; token: string; webhookSecret: string }>;
  /** Catalog rows (lib/catalog/product-input.ts) added or replaced in the upstream shop. */
  importProducts(rows: unknown[]): Promise<void>;
  stop(): Promise<void>;
};

/**
 * Another instance of this shop, upstream of the one under test: a child process (test/fixtures/upstream-shop.fixture.ts)
 * on its own embedded database, without the demo catalog, serving the real /api/v2 and /api/admin route handlers.
 */
export async function startUpstreamShop(): Promise<UpstreamShop> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-upstream-"));
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "test/fixtures/upstream-shop.fixture.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      ADMIN_TOKEN,
      NETWORK_MODE: "devnet",
      SEED_DEMO_CATALOG: "false",
      PUBLIC_ORIGIN: origin,
      LOG_LEVEL: "warn",
      UPSTREAM_API_URL: "",
      UPSTREAM_API_ID: "",
      UPSTREAM_API_SECRET: "",
      UPSTREAM_API_TOKEN: "",
      TEST_DB: "",
      VITEST: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stderr.on("data", (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  await new Promise<void>((resolve, reject) => {
    // Opening its database takes most of it: seconds alone, a minute or two on a busy machine.
    const timer = setTimeout(() => reject(new Error(`the upstream shop did not start: ${output}`)), 150_000);
    child.stdout.on("data", (d: Buffer) => {
      if (d.toString().includes(READY)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the upstream shop exited (${code}): ${output}`));
    });
  }).catch(async (err) => {
    await stop();
    throw err;
  });

  const admin: UpstreamShop["admin"] = async (method, p, body) => {
    const res = await fetch(`${origin}${p}`, {
      method,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return {
    origin,
    apiUrl: `${origin}/api/v2`,
    admin,
    async newMerchant(creditUsd) {
      const res = await admin("POST", "/api/admin/merchants", { name: "Reseller", credit_usd: creditUsd });
      if (res.status !== 201) throw new Error(`no merchant: ${JSON.stringify(res.body)}`);
      const m = res.body as { merchant_id: string; api_id: string; api_secret: string; api_token: string; webhook_secret: string };
      return { merchantId: m.merchant_id, id: m.api_id, secret: m.api_secret, token: m.api_token, webhookSecret: m.webhook_secret };
    },
    async importProducts(rows) {
      const res = await admin("POST", "/api/admin/catalog/import", { rows });
      const report = res.body as { imported: number; rejected: unknown[] };
      if (res.status !== 200 || report.rejected.length > 0) throw new Error(`import refused: ${JSON.stringify(res.body)}`);
    },
    stop,
  };
}

/** A gift card row for the upstream's catalog: `slug`, in US dollars, with these packages. */
export function giftCardRow(slug: string, values: string[] = ["10", "25"], extra: Record<string, unknown> = {}) {
  return {
    slug,
    name: `Card ${slug}`,
    kind: "gift_card",
    brand: `Brand ${slug}`,
    country: "US",
    currency: "USD",
    categories: ["gaming"],
    description: `The ${slug} card.`,
    redemptionInstructions: "Enter the code at checkout.",
    packages: values.map((value) => ({ value })),
    ...extra,
  };
}

/**
 * How a stand-in answers one request: a status, headers and a JSON body, or `forward` to the real upstream; forwarded
 * with `forwardAfterMs`, the upstream's answer is held that long, with `beforeRelay` until that promise settles (the
 * upstream has answered; the caller has not heard it yet: a test may stop the caller there).
 */
export type FaultAnswer =
  | { status: number; headers?: Record<string, string>; body?: unknown; delayMs?: number }
  | "forward"
  | { forwardAfterMs: number }
  | { beforeRelay: (answer: { status: number; body: string }) => Promise<void> };

export type StandInRequest = { method: string; path: string; n: number; idempotencyKey: string | undefined };

/**
 * A stand-in in front of an upstream: every request is first shown to `decide` (method, path with query, how many
 * requests came before, the request's Idempotency-Key), which answers it itself (a fault) or forwards it to `target`
 * as it is. `seen` lists them; an upstream that does not answer a forwarded request is a 502.
 */
export async function startStandIn(
  target: string,
  decide: (req: StandInRequest) => FaultAnswer,
): Promise<{ origin: string; seen: (StandInRequest & { status: number })[]; stop(): Promise<void> }> {
  const seen: (StandInRequest & { status: number })[] = [];
  let n = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const key = req.headers["idempotency-key"];
    const info: StandInRequest = { method: req.method ?? "GET", path: req.url ?? "/", n: n++, idempotencyKey: typeof key === "string" ? key : undefined };
    const answer = decide(info);
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    if (answer === "forward" || "forwardAfterMs" in answer || "beforeRelay" in answer) {
      const headers = Object.fromEntries(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" && k !== "host" ? [[k, v]] : [])));
      let upstream: Response;
      try {
        upstream = await fetch(`${target}${info.path}`, { method: info.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
      } catch {
        seen.push({ ...info, status: 502 });
        if (!res.destroyed) res.writeHead(502).end();
        return;
      }
      // Links the upstream hands out (`meta._next`) lead back through the stand-in, as through a proxy.
      const body = Buffer.from((await upstream.text()).replaceAll(new URL(target).origin, self()));
      seen.push({ ...info, status: upstream.status });
      if (answer !== "forward" && "forwardAfterMs" in answer) await wait(answer.forwardAfterMs);
      if (answer !== "forward" && "beforeRelay" in answer) await answer.beforeRelay({ status: upstream.status, body: body.toString() });
      const out = Object.fromEntries([...upstream.headers].filter(([k]) => !["content-encoding", "content-length", "transfer-encoding"].includes(k)));
      if (!res.destroyed) res.writeHead(upstream.status, out).end(body);
      return;
    }
    seen.push({ ...info, status: answer.status });
    if (answer.delayMs) await wait(answer.delayMs);
    if (!res.destroyed) {
      res.writeHead(answer.status, { "Content-Type": "application/json", ...answer.headers }).end(answer.body === undefined ? "" : JSON.stringify(answer.body));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const self = () => `http://127.0.0.1:${port}`;
  return {
    origin: self(),
    seen,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
