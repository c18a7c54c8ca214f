import { describe, expect, it } from "vitest";
import type { PaymentRequirements } from "@x402/core/types";
import { ApiError } from "@/lib/platform/http/api-error";
import { decodePaymentHeader } from "./payment-header";

const offered: PaymentRequirements[] = [
  {
    scheme: "exact",
    network: "eip155:8453",
    amount: "1000",
    asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    payTo: "0x000000000000000000000000000000000000dEaD",
    maxTimeoutSeconds: 300,
    extra: { name: "USD Coin", version: "2" },
  },
];
const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64");

describe("decodePaymentHeader", () => {
  it("reads a v2 payload", () => {
    const p = decodePaymentHeader(b64({ x402Version: 2, accepted: offered[0], payload: { signature: "0x1" } }), offered);
    expect(p.accepted).toEqual(offered[0]);
  });

  it("lifts a v1 payload onto the requirement it names, v1 network names included", () => {
    const p = decodePaymentHeader(b64({ x402Version: 1, scheme: "exact", network: "base", payload: { signature: "0x1" } }), offered);
    expect(p).toMatchObject({ x402Version: 2, accepted: offered[0], payload: { signature: "0x1" } });
  });

  it("knows Polygon Amoy by its v1 name", () => {
    const amoy: PaymentRequirements = {
      ...offered[0]!,
      network: "eip155:80002",
      asset: "0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582",
      extra: { name: "USDC", version: "2" },
    };
    const p = decodePaymentHeader(b64({ x402Version: 1, scheme: "exact", network: "polygon-amoy", payload: { signature: "0x1" } }), [amoy]);
    expect(p.accepted).toEqual(amoy);
  });

  it("answers 400 for anything that is not a payment", () => {
    for (const h of [
      "%%%",
      b64("hello"),
      b64([]),
      b64({ x402Version: 3 }),
      b64({ x402Version: 2 }),
      b64({ x402Version: 1, scheme: "exact", network: "base" }),
    ]) {
      const err = (() => {
        try {
          decodePaymentHeader(h, offered);
        } catch (e) {
          return e;
        }
      })();
      expect(err, h).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(400);
    }
  });

  it("answers 400 naming the networks for a v1 payment on a network we do not take", () => {
    expect(() => decodePaymentHeader(b64({ x402Version: 1, scheme: "exact", network: "avalanche", payload: {} }), offered)).toThrow(
      /does not take exact payments on avalanche/,
    );
  });
});
