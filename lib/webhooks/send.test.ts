import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { postWebhook, RESPONSE_EXCERPT_BYTES, WEBHOOK_TIMEOUT_MS, WEBHOOK_USER_AGENT } from "./send";
import { newWebhookSecret } from "@/lib/merchants/secrets";
import { startReceiver, type Receiver } from "@/test/webhooks";
import type { Resolver } from "./url-guard";

let receiver: Receiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

const secret = newWebhookSecret();
const body = JSON.stringify({ id: "inv_01JTEST", status: "complete", orders: [{ id: "ord_01JTEST", status: "delivered" }] });
const message = (url: string, secrets = [secret]) => ({ url, id: "msg_01JTESTMESSAGE0000000000000", body, secrets });
const headers = (h: Record<string, string | string[] | undefined>) => h as Record<string, string>;

describe("postWebhook", () => {
  it("POSTs the body as signed, verifiable by the standardwebhooks package", async () => {
    receiver = await startReceiver(() => ({ status: 200, body: "thanks" }));
    const r = await postWebhook(message(receiver.url("/hooks?shop=1")), { mode: "devnet" });
    expect(r).toMatchObject({ statusCode: 200, responseExcerpt: "thanks", error: null, retryAfterMs: null });
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
    const [req] = receiver.requests;
    expect(req).toMatchObject({ method: "POST", url: "/hooks?shop=1", body });
    expect(req!.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": WEBHOOK_USER_AGENT,
      "webhook-id": "msg_01JTESTMESSAGE0000000000000",
    });
    expect(Number(req!.headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -1);
    expect(new Webhook(secret).verify(req!.body, headers(req!.headers))).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(req!.body, headers(req!.headers))).toThrow(/No matching signature/);
  });

  it("signs with every secret given, space-separated: either verifies", async () => {
    receiver = await startReceiver();
    const old = newWebhookSecret();
    await postWebhook(message(receiver.url(), [secret, old]), { mode: "devnet" });
    const [req] = receiver.requests;
    expect(String(req!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const s of [secret, old]) expect(new Webhook(s).verify(req!.body, headers(req!.headers))).toEqual(JSON.parse(body));
  });

  it("keeps the first KiB of the response, as text", async () => {
    receiver = await startReceiver(() => ({ status: 500, body: "é".repeat(2000) }));
    const r = await postWebhook(message(receiver.url()), { mode: "devnet" });
    expect(r.statusCode).toBe(500);
    expect(r.error).toBeNull();
    expect(r.responseExcerpt).toBe("é".repeat(RESPONSE_EXCERPT_BYTES / 2));
  });

  it("drops NUL characters from the excerpt (PostgreSQL text cannot hold them)", async () => {
    receiver = await startReceiver(() => ({ status: 400, body: "bad\u0000request" }));
    expect((await postWebhook(message(receiver.url()), { mode: "devnet" })).responseExcerpt).toBe("badrequest");
  });

  it("does not follow redirects", async () => {
    receiver = await startReceiver((req) => (req.url === "/old" ? { status: 301, headers: { location: "/new" } } : { status: 200 }));
    const r = await postWebhook(message(receiver.url("/old")), { mode: "devnet" });
    expect(r).toMatchObject({ statusCode: 301, error: "redirect not followed (Location: /new)" });
    expect(receiver.requests.map((q) => q.url)).toEqual(["/old"]);
  });

  it("reads Retry-After in seconds", async () => {
    receiver = await startReceiver(() => ({ status: 429, headers: { "retry-after": "120" } }));
    expect(await postWebhook(message(receiver.url()), { mode: "devnet" })).toMatchObject({ statusCode: 429, retryAfterMs: 120_000 });
  });

  it("gives a receiver 5 seconds to answer unless told otherwise (the spec's limit)", async () => {
    expect(WEBHOOK_TIMEOUT_MS).toBe(5_000);
    const timeout = vi.spyOn(AbortSignal, "timeout");
    try {
      receiver = await startReceiver(() => ({ status: 204 }));
      expect(await postWebhook(message(receiver.url()), { mode: "devnet" })).toMatchObject({ statusCode: 204, error: null });
      expect(timeout).toHaveBeenCalledWith(WEBHOOK_TIMEOUT_MS);
    } finally {
      timeout.mockRestore();
    }
  });

  it("gives up at the timeout with no status", async () => {
    receiver = await startReceiver(() => "hang");
    const r = await postWebhook(message(receiver.url()), { mode: "devnet", timeoutMs: 200 });
    expect(r).toMatchObject({ statusCode: null, responseExcerpt: null, error: "timed out after 200 ms" });
    expect(r.durationMs).toBeGreaterThanOrEqual(190);
    expect(r.durationMs).toBeLessThan(2_000);
    expect(receiver.requests).toHaveLength(1);
  });

  it("takes a status that came in time even when the body never ends", async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("accepted, still streaming");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const r = await postWebhook(message(`http://127.0.0.1:${port}/`), { mode: "devnet", timeoutMs: 300 });
      expect(r).toMatchObject({ statusCode: 200, responseExcerpt: "accepted, still streaming", error: null });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("reports a refused connection", async () => {
    receiver = await startReceiver();
    const url = receiver.url();
    await receiver.close();
    receiver = undefined;
    expect(await postWebhook(message(url), { mode: "devnet" })).toMatchObject({ statusCode: null, error: "connection refused (ECONNREFUSED)" });
  });

  it("sends nothing to loopback outside devnet mode, nor over http", async () => {
    receiver = await startReceiver();
    expect(await postWebhook(message(receiver.url()), { mode: "testnet" })).toMatchObject({ statusCode: null, error: "blocked: must be an https URL" });
    const https = receiver.url().replace("http:", "https:");
    expect(await postWebhook(message(https), { mode: "mainnet" })).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/^blocked: goes to 127\.0\.0\.1, a loopback address/),
    });
    expect(receiver.requests).toHaveLength(0);
  });

  it("connects to the address the guard checked, resolving the name once (no DNS rebinding)", async () => {
    receiver = await startReceiver();
    const port = new URL(receiver.url()).port;
    const answers = [["127.0.0.1"], ["10.0.0.1"]];
    let lookups = 0;
    // First answer checked and used; a second, different answer would be refused, but is never asked for.
    const rebinding: Resolver = async () => (answers[lookups++] ?? []).map((address) => ({ address, family: 4 }));
    const r = await postWebhook(message(`http://hooks.rebind.test:${port}/hooks`), { mode: "devnet", resolve: rebinding });
    expect(r.statusCode).toBe(204);
    expect(lookups).toBe(1);
    expect(receiver.requests[0]!.headers.host).toBe(`hooks.rebind.test:${port}`);
  });

  it("refuses a name that resolves to a private address before connecting", async () => {
    const r = await postWebhook(message("http://intranet.test/hooks"), { mode: "devnet", resolve: async () => [{ address: "192.168.0.10", family: 4 }] });
    expect(r).toMatchObject({ statusCode: null, error: "blocked: host intranet.test resolves to 192.168.0.10, a private address" });
  });
});
