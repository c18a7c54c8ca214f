import { Writable } from "node:stream";
import { HttpRequestError } from "viem";
import { describe, expect, it } from "vitest";
import { addLogContext, createLog, logContext, withLogContext, withoutLogContext } from "./log";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const log = createLog(stream);
  log.level = "debug";
  return { lines, log };
}

describe("the log", () => {
  it("writes one JSON object a line, with the level by name, the time and the ids it is about", () => {
    const { lines, log } = capture();
    log.child({ request_id: "req-12345678", invoice_id: "inv_1" }).error({ merchant_id: "mer_1" }, "something failed");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: "error",
      msg: "something failed",
      request_id: "req-12345678",
      invoice_id: "inv_1",
      merchant_id: "mer_1",
      service: "storefront",
    });
    expect(new Date(lines[0]!.time as string).getTime()).toBeGreaterThan(0);
  });

  it("never writes secrets or codes, at the top or one level down", () => {
    const { lines, log } = capture();
    log.warn({ authorization: "Basic abc", api_secret: "s3cret", order: { code: "GIFT-CODE-1234", pin: "9876", id: "ord_1" } }, "careful");
    const text = JSON.stringify(lines[0]);
    for (const secret of ["Basic abc", "s3cret", "GIFT-CODE-1234", "9876"]) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ order: { id: "ord_1", code: "[redacted]" } });
  });

  it("writes URLs without credentials, path or query, and no request body, wherever they are in a line", () => {
    const { lines, log } = capture();
    const rpc = new HttpRequestError({ url: "https://rpc.example.com/v2/SECRETKEY", status: 429, body: { method: "eth_chainId" }, details: "slow down" });
    log.error({ err: new Error("the round failed", { cause: rpc }), feed: "https://fx.example/rates?key=SECRETKEY" }, "failed");
    log.error(rpc);
    log.warn(`cannot reach postgres://shop:SECRETKEY@db.internal:5432/shop`);
    const text = lines.map((l) => JSON.stringify(l)).join("\n");
    expect(text).not.toContain("SECRETKEY");
    expect(text).not.toContain("Request body");
    expect(lines[0]).toMatchObject({ feed: "https://fx.example", err: { message: expect.stringContaining("URL: https://rpc.example.com") } });
    expect(lines[1]!.msg).toContain("Status: 429");
    expect(lines[2]!.msg).toBe("cannot reach postgres://db.internal");
  });

  it("writes errors with their message and stack", () => {
    const { lines, log } = capture();
    log.error({ err: new Error("boom") }, "failed");
    expect(lines[0]).toMatchObject({ err: { message: "boom", type: "Error" } });
  });
});

describe("the log's context", () => {
  it("adds the ids of the running context to every line, through awaits, without repeating a child's own", async () => {
    const { lines, log } = capture();
    await withLogContext({ request_id: "req-1", skipped: undefined }, async () => {
      log.info("first");
      await new Promise((r) => setTimeout(r, 1));
      addLogContext({ merchant_id: "mer_1" });
      await Promise.resolve().then(() => log.warn({ extra: 1 }, "second"));
      log.child({ merchant_id: "mer_2" }).error("third");
      expect(logContext()).toEqual({ request_id: "req-1", merchant_id: "mer_1" });
      withoutLogContext(() => log.info("elsewhere"));
    });
    log.info("outside");
    expect(lines.map((l) => [l.msg, l.request_id, l.merchant_id])).toEqual([
      ["first", "req-1", undefined],
      ["second", "req-1", "mer_1"],
      ["third", "req-1", "mer_2"],
      ["elsewhere", undefined, undefined],
      ["outside", undefined, undefined],
    ]);
    expect(lines[1]).toMatchObject({ extra: 1 });
    expect(lines[0]).not.toHaveProperty("skipped");
  });

  it("keeps two requests' ids apart while they interleave", async () => {
    const { lines, log } = capture();
    const request = (id: string, ms: number) =>
      withLogContext({ request_id: id }, async () => {
        await new Promise((r) => setTimeout(r, ms));
        addLogContext({ invoice_id: `inv_${id}` });
        log.info("done");
      });
    await Promise.all([request("a", 5), request("b", 1)]);
    expect(lines.map((l) => [l.request_id, l.invoice_id])).toEqual([
      ["b", "inv_b"],
      ["a", "inv_a"],
    ]);
  });
});
