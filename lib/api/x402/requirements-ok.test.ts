import { describe, expect, it } from "vitest";
import { requirementsAnsweredOk } from "./requirements-ok";

describe("a paid route's requirements for the shop's own pages", () => {
  it("answers the route's 402 as 200 with the same body and PAYMENT-REQUIRED, its other answers as they are, never with a payment", async () => {
    const seen: Request[] = [];
    const route = requirementsAnsweredOk(async (req) => {
      seen.push(req);
      const body = await req.text();
      if (body.includes("missing")) return Response.json({ code: "INVOICE_NOT_FOUND" }, { status: 404 });
      if (body.includes("bare")) return new Response("no header", { status: 402 });
      return Response.json({ x402Version: 2, accepts: [] }, { status: 402, headers: { "PAYMENT-REQUIRED": "e30=", "X-Request-Id": "r1" } });
    });
    const ask = (body: string, headers: Record<string, string> = {}) =>
      route(new Request("http://shop.test/api/invoice-payment", { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body }));

    const ok = await ask('{"invoice_id":"inv_1"}', { "PAYMENT-SIGNATURE": "forged", "X-PAYMENT": "forged" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("payment-required")).toBe("e30=");
    expect(ok.headers.get("x-request-id")).toBe("r1");
    expect(await ok.json()).toEqual({ x402Version: 2, accepts: [] });
    // The route saw the request without any payment: this way only asks, it never pays.
    expect(seen[0]!.headers.has("payment-signature")).toBe(false);
    expect(seen[0]!.headers.has("x-payment")).toBe(false);
    expect(seen[0]!.headers.get("content-type")).toBe("application/json");

    expect((await ask('{"invoice_id":"missing"}')).status).toBe(404);
    // A 402 without requirements is no requirement to hand on: as it is.
    expect((await ask('{"bare":1}')).status).toBe(402);
  });
});
