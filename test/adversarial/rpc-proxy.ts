import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * Test support only (production code never imports it): an EVM JSON-RPC endpoint that misbehaves the way real ones do
 * behind a load balancer or a rate limit, in front of a real node (anvil).
 */

/** The faults a proxy shows; each is off when absent. Set them at any time with `set` (or by changing `faults`). */
export type RpcFaults = {
  /**
   * Receipts and look-ups lag: `eth_getTransactionReceipt` answers null, and `eth_getTransactionByHash` null (or, with
   * `lookups: "unmined"`, the transaction without its block) for transactions mined in the last `blocks` blocks, as a
   * node that indexes them after the block, or another node behind the same URL, does.
   */
  lag?: { blocks: number; lookups?: "null" | "unmined" };
  /** HTTP 429 Too Many Requests: to every request, to those calling one of `methods`, or to every `every`-th of them. */
  tooMany?: { methods?: readonly string[]; every?: number };
  /**
   * No answer: the request is held, and its connection closed after `ms` (or when the proxy is closed), for every
   * request or those calling one of `methods`.
   */
  hang?: { methods?: readonly string[]; ms?: number };
  /** A node `blocks` behind: `eth_blockNumber` answers head - blocks, and reads at "latest" are made at that block. */
  behind?: { blocks: number };
};

export type AdversarialRpc = {
  /** The proxy's JSON-RPC URL (127.0.0.1, a free port). */
  url: string;
  /** The faults in force. */
  faults: RpcFaults;
  /** Replaces the faults in force (`set({})`: none). */
  set(faults: RpcFaults): void;
  /** The methods called through the proxy so far, in order (each call of a batch counted). */
  calls: string[];
  /** Stops listening, drops every held request and open connection. */
  close(): Promise<void>;
};

type Call = { jsonrpc?: string; id?: unknown; method: string; params?: unknown[] };
type Answer = { jsonrpc: "2.0"; id: unknown; result?: unknown; error?: unknown };

/** Starts a proxy on 127.0.0.1 in front of `upstream` (a JSON-RPC URL), showing `faults` until they are changed. */
export async function startAdversarialRpc(upstream: string, faults: RpcFaults = {}): Promise<AdversarialRpc> {
  const sockets = new Set<Socket>();
  const held = new Set<http.ServerResponse>();
  const matched = new Map<string, number>();
  let closed = false;

  const proxy: AdversarialRpc = {
    url: "",
    faults,
    calls: [],
    set(f) {
      proxy.faults = f;
      matched.clear();
    },
    close: async () => {
      closed = true;
      for (const res of held) res.destroy();
      held.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };

  const forward = async (body: unknown): Promise<unknown> => {
    const res = await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return res.json();
  };
  const upstreamHead = async () => BigInt(((await forward({ jsonrpc: "2.0", id: 0, method: "eth_blockNumber", params: [] })) as { result: string }).result);
  const touches = (calls: Call[], methods: readonly string[] | undefined) => !methods || calls.some((c) => methods.includes(c.method));

  /** One call as the faulty node answers it. */
  async function answer(call: Call, f: RpcFaults): Promise<Answer> {
    let params = call.params ?? [];
    const head = f.lag || f.behind ? await upstreamHead() : 0n;
    const served = f.behind ? head - BigInt(f.behind.blocks) : head;
    if (f.behind) {
      if (call.method === "eth_blockNumber") return { jsonrpc: "2.0", id: call.id, result: `0x${served.toString(16)}` };
      params = params.map((p) => atServed(p, served));
    }
    const upstreamAnswer = (await forward({ ...call, jsonrpc: "2.0", params })) as Answer;
    if (!f.lag || upstreamAnswer.result == null) return upstreamAnswer;
    const result = upstreamAnswer.result as { blockNumber?: string | null };
    const minedRecently = typeof result.blockNumber === "string" && BigInt(result.blockNumber) > head - BigInt(f.lag.blocks);
    if (!minedRecently) return upstreamAnswer;
    if (call.method === "eth_getTransactionReceipt") return { ...upstreamAnswer, result: null };
    if (call.method === "eth_getTransactionByHash") {
      const unmined = { ...result, blockNumber: null, blockHash: null, transactionIndex: null };
      return { ...upstreamAnswer, result: f.lag.lookups === "unmined" ? unmined : null };
    }
    return upstreamAnswer;
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Call | Call[];
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Call | Call[];
    } catch {
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }));
      return;
    }
    const calls = Array.isArray(body) ? body : [body];
    for (const c of calls) proxy.calls.push(c.method);
    const f = proxy.faults;

    if (f.hang && touches(calls, f.hang.methods)) {
      held.add(res);
      const ms = f.hang.ms;
      const drop = () => {
        held.delete(res);
        res.destroy();
      };
      if (ms !== undefined) setTimeout(drop, ms).unref();
      res.on("close", () => held.delete(res));
      return;
    }
    if (f.tooMany && touches(calls, f.tooMany.methods)) {
      const n = (matched.get("tooMany") ?? 0) + 1;
      matched.set("tooMany", n);
      if (!f.tooMany.every || n % f.tooMany.every === 0) {
        res.writeHead(429, { "content-type": "text/plain", "retry-after": "1" }).end("Too Many Requests");
        return;
      }
    }
    const answers = await Promise.all(calls.map((c) => answer(c, f)));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // The upstream node stopped, or the proxy is closing: the client sees a failed request, as from a node gone away.
      if (!res.headersSent && !closed) res.writeHead(502, { "content-type": "text/plain" }).end(String(err));
      else res.destroy();
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/** A block tag "latest" (alone, or as a filter's bound) made the block a node behind would call latest. */
function atServed(param: unknown, served: bigint): unknown {
  const tag = `0x${served.toString(16)}`;
  if (param === "latest") return tag;
  if (param && typeof param === "object" && !Array.isArray(param)) {
    const o = { ...(param as Record<string, unknown>) };
    if (o.fromBlock === "latest") o.fromBlock = tag;
    if (o.toBlock === "latest") o.toBlock = tag;
    if (o.blockTag === "latest") o.blockTag = tag;
    return o;
  }
  return param;
}
