import http from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicClient, http as rpcHttp, HttpRequestError, TimeoutError } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rpcFetch, RPC_MAX_ANSWER_BYTES } from "./rpc-fetch";

// A node stand-in on loopback: eth_blockNumber answers 0x2a, a batch is answered per call; the paths /slow, /huge and
// /down answer late, too much, and 503.
let server: http.Server;
let base: string;
const seen: { method?: string; contentType?: string; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method, contentType: req.headers["content-type"], body });
      if (req.url === "/slow") return void setTimeout(() => res.end("{}"), 2_000);
      if (req.url === "/huge") return void res.end(Buffer.alloc(RPC_MAX_ANSWER_BYTES + 1, 32));
      if (req.url === "/down") return void res.writeHead(503, { "Content-Type": "text/plain" }).end("service unavailable");
      const calls = JSON.parse(body) as { id: number }[] | { id: number };
      const answer = (c: { id: number }) => ({ jsonrpc: "2.0", id: c.id, result: "0x2a" });
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(Array.isArray(calls) ? calls.map(answer) : answer(calls)));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("rpcFetch", () => {
  it("posts the body with its headers and answers the node's status, headers and body as a Response", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] });
    const res = await rpcFetch(`${base}/`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: 1, result: "0x2a" });
    expect(seen.at(-1)).toEqual({ method: "POST", contentType: "application/json", body });

    const down = await rpcFetch(`${base}/down`, { method: "POST", body: "{}" });
    expect([down.status, down.ok, await down.text()]).toEqual([503, false, "service unavailable"]);
  });

  it("serves viem's transport: single calls, batches, a node in trouble and a timeout", async () => {
    const client = createPublicClient({ transport: rpcHttp(`${base}/`, { batch: true, fetchFn: rpcFetch }) });
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(42n);
    expect(await Promise.all([client.getChainId(), client.getGasPrice()])).toEqual([42, 42n]);
    expect(JSON.parse(seen.at(-1)!.body)).toHaveLength(2);

    const down = createPublicClient({ transport: rpcHttp(`${base}/down`, { fetchFn: rpcFetch, retryCount: 0 }) });
    await expect(down.getChainId()).rejects.toBeInstanceOf(HttpRequestError);
    const slow = createPublicClient({ transport: rpcHttp(`${base}/slow`, { fetchFn: rpcFetch, retryCount: 0, timeout: 200 }) });
    const started = Date.now();
    await expect(slow.getChainId()).rejects.toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it("ends a request its signal aborts, refuses an answer larger than viem takes, and takes http(s) URLs only", async () => {
    const controller = new AbortController();
    const pending = rpcFetch(`${base}/slow`, { method: "POST", body: "{}", signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(rpcFetch(`${base}/huge`, { method: "POST", body: "{}" })).rejects.toThrow(/larger than/);
    await expect(rpcFetch("file:///etc/passwd")).rejects.toThrow(/http\(s\) URLs/);
  });
});
