import { describe, expect, it } from "vitest";
import { merchantStatus, paymentStatus } from "@/lib/merchants/invoice-view";
import { effectiveStatus } from "./effective-status";
import { payability } from "./payment";

const now = new Date("2026-11-25T12:00:00Z");
const before = new Date(now.getTime() - 1);
const after = new Date(now.getTime() + 60_000);

describe("an invoice's status at a moment, as every reader sees it", () => {
  it("is expired once an unpaid invoice's time is up, before the sweeper marks it", () => {
    expect(effectiveStatus({ status: "unpaid", expiresAt: after }, now)).toBe("unpaid");
    expect(effectiveStatus({ status: "unpaid", expiresAt: now }, now)).toBe("expired");
    expect(effectiveStatus({ status: "unpaid", expiresAt: before }, now)).toBe("expired");
    // Paid in time: the expiry no longer matters.
    expect(effectiveStatus({ status: "fulfilling", expiresAt: before }, now)).toBe("fulfilling");
  });

  it("is the one the merchant API's statuses and the payability start from", () => {
    const lapsed = { status: "unpaid" as const, expiresAt: before };
    expect(merchantStatus(lapsed, now)).toBe("denied");
    expect(paymentStatus(lapsed, now)).toBe("expired");
    expect(payability({ ...lapsed } as Parameters<typeof payability>[0], now)).toBe("expired");
    const open = { status: "unpaid" as const, expiresAt: after };
    expect([merchantStatus(open, now), paymentStatus(open, now), payability(open as Parameters<typeof payability>[0], now)]).toEqual([
      "unpaid",
      "unpaid",
      null,
    ]);
    const paid = { status: "paid" as const, expiresAt: before };
    expect([merchantStatus(paid, now), paymentStatus(paid, now), payability(paid as Parameters<typeof payability>[0], now)]).toEqual([
      "processing",
      "payment_confirmed",
      "not_payable",
    ]);
  });
});
