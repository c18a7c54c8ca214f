import { describe, expect, it } from "vitest";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { paymentIdentity, PaymentIdentityError } from "./identity";

const now = new Date("2026-11-24T12:00:00Z");
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

const evmRequirement: PaymentRequirements = {
  scheme: "exact",
  network: "eip155:8453",
  amount: "1000000",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  payTo: "0x000000000000000000000000000000000000dEaD",
  maxTimeoutSeconds: 300,
  extra: { name: "USD Coin", version: "2" },
};

const evmPayload = (authorization: Record<string, unknown>): PaymentPayload =>
  ({
    x402Version: 2,
    accepted: evmRequirement,
    payload: {
      signature: "0x00",
      authorization: {
        from: "0xAbCdEf0123456789aBcDeF0123456789AbCdEf01",
        to: evmRequirement.payTo,
        value: "1000000",
        validAfter: "0",
        validBefore: String(seconds(now) + 300),
        nonce: `0x${"A1".repeat(32)}`,
        ...authorization,
      },
    },
  }) as PaymentPayload;

describe("payment identity", () => {
  it("names an EVM payment by token, payer and nonce, whatever its case, and knows when it stops being valid", () => {
    const id = paymentIdentity(evmPayload({}), evmRequirement, now);
    expect(id.identity).toBe(`0x833589fcd6edb6e08f4c7c32d4f71b54bda02913:0xabcdef0123456789abcdef0123456789abcdef01:0x${"a1".repeat(32)}`);
    expect(id.validUntil).toEqual(new Date(now.getTime() + 300_000));
    expect(id.payer).toBe("0xAbCdEf0123456789aBcDeF0123456789AbCdEf01");
    // The same authorization signed again differently (another signature) is the same payment.
    const again = paymentIdentity({ ...evmPayload({}), payload: { ...evmPayload({}).payload, signature: "0x01" } }, evmRequirement, now);
    expect(again.identity).toBe(id.identity);
    expect(paymentIdentity(evmPayload({ nonce: `0x${"b2".repeat(32)}` }), evmRequirement, now).identity).not.toBe(id.identity);
  });

  it("refuses an authorization valid for longer than the requirement's timeout allows", () => {
    expect(() => paymentIdentity(evmPayload({ validBefore: String(seconds(now) + 300 + 60) }), evmRequirement, now)).not.toThrow();
    expect(() => paymentIdentity(evmPayload({ validBefore: String(seconds(now) + 300 + 61) }), evmRequirement, now)).toThrow(PaymentIdentityError);
    expect(() => paymentIdentity(evmPayload({ validBefore: "99999999999999999999" }), evmRequirement, now)).toThrow(/too long/);
  });

  it("refuses a payload that carries anything beside the payment it is read as", () => {
    const evm = evmPayload({});
    const inner = evm.payload as { signature: string; authorization: Record<string, unknown> };
    // The x402 library settles a payload with a permit2Authorization through Permit2, whatever else it carries.
    const permit2 = { ...evm, payload: { ...inner, permit2Authorization: { from: inner.authorization.from, nonce: "1" } } };
    expect(() => paymentIdentity(permit2, evmRequirement, now)).toThrow(/permit2Authorization: the shop takes EIP-3009 authorizations only/);
    expect(() => paymentIdentity({ ...evm, payload: { permit2Authorization: {}, signature: "0x00" } }, evmRequirement, now)).toThrow(/permit2Authorization/);
    expect(() => paymentIdentity({ ...evm, payload: { ...inner, salt: "0x01" } }, evmRequirement, now)).toThrow(
      new PaymentIdentityError("The payment carries fields the shop does not take: salt"),
    );
    expect(() => paymentIdentity(evmPayload({ data: "0x" }), evmRequirement, now)).toThrow(/does not take: authorization\.data/);
    // A signature is part of an EIP-3009 payment.
    expect(() => paymentIdentity({ ...evm, payload: { authorization: inner.authorization } }, evmRequirement, now)).toThrow(PaymentIdentityError);
    const solana: PaymentRequirements = { ...evmRequirement, network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" };
    expect(() => paymentIdentity({ ...evm, payload: { transaction: "AAAA", feePayer: "x" } }, solana, now)).toThrow(/does not take: feePayer/);
  });

  it("refuses what is not a payment of the network's kind", () => {
    expect(() => paymentIdentity(evmPayload({ nonce: "0x12" }), evmRequirement, now)).toThrow(PaymentIdentityError);
    expect(() => paymentIdentity({ ...evmPayload({}), payload: { transaction: "AAAA" } }, evmRequirement, now)).toThrow(PaymentIdentityError);
    const solana: PaymentRequirements = {
      ...evmRequirement,
      network: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
      asset: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    };
    expect(() => paymentIdentity({ ...evmPayload({}), payload: { transaction: "not a transaction" } }, solana, now)).toThrow(PaymentIdentityError);
    expect(() => paymentIdentity(evmPayload({}), { ...evmRequirement, network: "cosmos:hub" }, now)).toThrow(PaymentIdentityError);
  });
});
