import { describe, expect, it } from "vitest";
import { merchantStatus, paymentStatus } from "@/lib/checkout/merchant-invoice-view";
import { effectiveOrder, effectiveStatus, PAYMENT_FAILED, UNPAID_ORDER_ERRORS, type StatusFields } from "./effective-status";
import { payability } from "./payment";
import { codeHash, codeKeysFrom, formatCode, mintCode, newGiftCardCode, normalizeCode, sealCode, type SealedCode } from "@/lib/gift-cards/codes";

const now = new Date("2026-11-25T12:00:00Z");
const before = new Date(now.getTime() - 1);
const after = new Date(now.getTime() + 60_000);
const inv = (status: StatusFields["status"], expiresAt: Date, more: Partial<StatusFields> = {}): StatusFields => ({
  status,
  expiresAt,
  paymentClaim: null,
  errorCode: null,
  ...more,
});
const payable = (i: StatusFields) => payability(i as Parameters<typeof payability>[0], now);

describe("an invoice's status at a moment, as every reader sees it", () => {
  it("is expired once an unpaid invoice's time is up, before the sweeper marks it", () => {
    expect(effectiveStatus(inv("unpaid", after), now)).toBe("unpaid");
    expect(effectiveStatus(inv("unpaid", now), now)).toBe("expired");
    expect(effectiveStatus(inv("unpaid", before), now)).toBe("expired");
    // Paid in time: the expiry no longer matters.
    expect(effectiveStatus(inv("fulfilling", before), now)).toBe("fulfilling");
  });

  it("waits for a payment being settled past the expiry, and ends payment_error after an accepted payment failed", () => {
    // A payment holds it: it may still land, so the invoice has not ended (and takes no other payment).
    const held = inv("unpaid", before, { paymentClaim: "pay_1" });
    expect([effectiveStatus(held, now), merchantStatus(held, now), paymentStatus(held, now)]).toEqual(["unpaid", "unpaid", "unpaid"]);
    // An accepted payment failed and the invoice was not paid again in time.
    const failed = inv("unpaid", before, { errorCode: PAYMENT_FAILED });
    expect([effectiveStatus(failed, now), merchantStatus(failed, now), paymentStatus(failed, now), payable(failed)]).toEqual([
      "payment_error",
      "payment_error",
      "payment_error",
      "expired",
    ]);
    // Before its expiry it can still be paid.
    expect(effectiveStatus(inv("unpaid", after, { errorCode: PAYMENT_FAILED }), now)).toBe("unpaid");
  });

  it("is the one the merchant API's statuses and the payability start from", () => {
    const lapsed = inv("unpaid", before);
    expect(merchantStatus(lapsed, now)).toBe("denied");
    expect(paymentStatus(lapsed, now)).toBe("expired");
    expect(payable(lapsed)).toBe("expired");
    const open = inv("unpaid", after);
    expect([merchantStatus(open, now), paymentStatus(open, now), payable(open)]).toEqual(["unpaid", "unpaid", null]);
    const paid = inv("paid", before);
    expect([merchantStatus(paid, now), paymentStatus(paid, now), payable(paid)]).toEqual(["processing", "payment_confirmed", "not_payable"]);
  });

  it("reads the orders of an invoice that ended unpaid as the sweep writes them", () => {
    const order = { status: "created" as const, errorCode: null, lastError: null };
    expect(effectiveOrder(order, inv("unpaid", after), now)).toEqual(order);
    expect(effectiveOrder(order, inv("unpaid", before, { paymentClaim: "pay_1" }), now)).toEqual(order);
    expect(effectiveOrder(order, inv("unpaid", before), now)).toEqual({ status: "failed", errorCode: "expired", lastError: UNPAID_ORDER_ERRORS.expired });
    expect(effectiveOrder({ ...order, lastError: "why" }, inv("unpaid", before, { errorCode: PAYMENT_FAILED }), now)).toEqual({
      status: "failed",
      errorCode: "payment_error",
      lastError: "why",
    });
    // Written already: as stored.
    const swept = { status: "failed" as const, errorCode: "expired", lastError: "stored" };
    expect(effectiveOrder(swept, inv("expired", before), now)).toBe(swept);
    // Expired before the sweep failed its orders: as the sweep writes them now.
    expect(effectiveOrder(order, inv("expired", before), now)).toMatchObject({ status: "failed", errorCode: "expired" });
    // Paid: the orders are the fulfilment's.
    expect(effectiveOrder(order, inv("paid", before), now)).toBe(order);
  });

  it("opens the sealed code of a delivered store gift card for its reader, and reads one it cannot open without a code", () => {
    const minted = mintCode(codeKeysFrom({ giftCardSecret: "a gift card secret of the test", sessionSecret: undefined, dataDir: "" }));
    const delivered = (sealed: SealedCode) => ({
      status: "delivered" as const,
      errorCode: null,
      lastError: null,
      redemption: { sealed_code: sealed, instructions: "Spend it here.", extra_fields: {} },
    });
    // Sealed under this process's key: opened as the code, the sealed copy not shown.
    const code = normalizeCode(newGiftCardCode())!;
    const hash = codeHash(code);
    expect(effectiveOrder(delivered({ sealed: sealCode(code, hash), hash }), inv("complete", before), now).redemption).toEqual({
      code: formatCode(code),
      instructions: "Spend it here.",
      extra_fields: {},
    });
    // Sealed under another key (the secret changed): no code, and the order still reads.
    expect(effectiveOrder(delivered({ sealed: minted.sealed, hash: minted.hash }), inv("complete", before), now).redemption).toEqual({
      instructions: "Spend it here.",
      extra_fields: {},
      other: "This gift card's code can no longer be read: the shop's gift card key has changed.",
    });
  });
});
