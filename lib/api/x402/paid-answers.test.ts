import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/platform/http/api-error";
import { paidAnswerKey } from "./paid-answers";

const payment = (id: unknown, nonce = "0x01") =>
  Buffer.from(
    JSON.stringify({
      x402Version: 2,
      accepted: { scheme: "exact", network: "eip155:84532", amount: "2000" },
      payload: { signature: "0xabc", authorization: { nonce } },
      extensions: { "payment-identifier": { info: { required: false, ...(id === undefined ? {} : { id }) } } },
    }),
  ).toString("base64");
const req = (header?: string) => new Request("http://shop.test/x402/gift-cards/search", { headers: header ? { "PAYMENT-SIGNATURE": header } : {} });

describe("the key of a paid call's answer", () => {
  it("is the payment identifier and a hash of the route and the signed payment", () => {
    const key = paidAnswerKey(req(payment("pay_0123456789abcdef")), "giftCardSearch");
    expect(key?.id).toBe("pay_0123456789abcdef");
    expect(paidAnswerKey(req(payment("pay_0123456789abcdef")), "giftCardSearch")).toEqual(key);
    expect(paidAnswerKey(req(payment("pay_0123456789abcdef")), "esimSearch")?.hash).not.toBe(key?.hash);
    expect(paidAnswerKey(req(payment("pay_0123456789abcdef", "0x02")), "giftCardSearch")?.hash).not.toBe(key?.hash);
  });

  it("is none without a payment, an identifier, or a header that decodes", () => {
    expect(paidAnswerKey(req(), "giftCardSearch")).toBeUndefined();
    // The 402's declaration echoed without an id, as every x402 client sends it.
    expect(paidAnswerKey(req(payment(undefined)), "giftCardSearch")).toBeUndefined();
    expect(paidAnswerKey(req("%%%"), "giftCardSearch")).toBeUndefined();
  });

  it("refuses a malformed identifier with 400 INVALID_PAYMENT", () => {
    for (const id of ["short", "x".repeat(129), "has spaces in it ok", 42]) {
      const err = (() => {
        try {
          paidAnswerKey(req(payment(id)), "giftCardSearch");
        } catch (e) {
          return e;
        }
      })();
      expect(err, String(id)).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 400, code: "INVALID_PAYMENT" });
    }
  });
});
