import { describe, expect, it } from "vitest";
import { BodyError, jsonProblem, readJson, readText, x402Json } from "./body";
import { ApiError } from "./api-error";
import { MAX_BODY_BYTES } from "./edge-guard";

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://shop.test/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);

/** A body sent in chunks without a Content-Length, as a client streaming it would. */
function chunked(total: number, chunk = 8192): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(chunk, total - sent);
      controller.enqueue(new Uint8Array(n).fill(0x20));
      sent += n;
    },
  });
}

describe("request bodies", () => {
  it("reads JSON, and leaves the request readable", async () => {
    const req = post(JSON.stringify({ items: [{ product_id: "steam-us", quantity: 2 }] }));
    expect(await readJson(req)).toEqual({ items: [{ product_id: "steam-us", quantity: 2 }] });
    expect(await req.json()).toEqual({ items: [{ product_id: "steam-us", quantity: 2 }] });
    expect(await readJson(post(""))).toBeUndefined();
  });

  it("refuses a body over the limit with 413, even one sent without Content-Length, and stops reading it", async () => {
    await expect(readText(post(chunked(MAX_BODY_BYTES + 1)))).rejects.toMatchObject({ status: 413 });
    await expect(readText(post(chunked(10 * MAX_BODY_BYTES)))).rejects.toBeInstanceOf(BodyError);
    expect((await readText(post(chunked(MAX_BODY_BYTES)))).length).toBe(MAX_BODY_BYTES);
  });

  it("refuses invalid UTF-8, text that is not JSON, NUL and lone surrogates anywhere, and deep nesting, with 400", async () => {
    await expect(readJson(post(new Uint8Array([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d])))).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/UTF-8/),
    });
    await expect(readJson(post("{"))).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/not valid JSON/) });
    await expect(readJson(post('{"a":"x\\u0000y"}'))).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/NUL/) });
    await expect(readJson(post('{"a":["\\ud800"]}'))).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/lone surrogate/) });
    await expect(readJson(post('{"\\u0000":1}'))).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/field name/) });
    await expect(readJson(post("[".repeat(5000) + "]".repeat(5000)))).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/nested deeper/) });
    expect(jsonProblem({ a: [{ b: "caf\u00e9 🎁" }] })).toBeUndefined();
  });

  it("speaks the /x402 API's errors", async () => {
    const tooBig = await x402Json(post(chunked(MAX_BODY_BYTES + 10)), "hint").catch((e: unknown) => e);
    expect(tooBig).toBeInstanceOf(ApiError);
    expect(tooBig).toMatchObject({ status: 413, code: "PAYLOAD_TOO_LARGE" });
    expect(await x402Json(post("nope"), "The body must be JSON.").catch((e: unknown) => e)).toMatchObject({ status: 400, code: "INVALID_JSON" });
    expect(await x402Json(post(""), "hint").catch((e: unknown) => e)).toMatchObject({ status: 400, code: "INVALID_JSON" });
  });
});
