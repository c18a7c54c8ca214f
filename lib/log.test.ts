import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLog } from "./log";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: createLog(stream) };
}

describe("the log", () => {
  it("writes one JSON object a line, with the level by name, the time and the ids it is about", () => {
    const { lines, log } = capture();
    log.child({ request_id: "req-12345678", invoice_id: "inv_1" }).error({ merchant_id: "mer_1" }, "something failed");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", msg: "something failed", request_id: "req-12345678", invoice_id: "inv_1", merchant_id: "mer_1", service: "storefront" });
    expect(new Date(lines[0]!.time as string).getTime()).toBeGreaterThan(0);
  });

  it("never writes secrets or codes, at the top or one level down", () => {
    const { lines, log } = capture();
    log.warn({ authorization: "Basic abc", api_secret: "s3cret", order: { code: "GIFT-CODE-1234", pin: "9876", id: "ord_1" } }, "careful");
    const text = JSON.stringify(lines[0]);
    for (const secret of ["Basic abc", "s3cret", "GIFT-CODE-1234", "9876"]) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ order: { id: "ord_1", code: "[redacted]" } });
  });

  it("writes errors with their message and stack", () => {
    const { lines, log } = capture();
    log.error({ err: new Error("boom") }, "failed");
    expect(lines[0]).toMatchObject({ err: { message: "boom", type: "Error" } });
  });
});
