import { describe, expect, it } from "vitest";
import { rollUp, type OrderStatus, type RollUp } from "./roll-up";

const STATUSES: OrderStatus[] = ["created", "processing", "delivered", "failed", "refunded"];
const of = (...statuses: OrderStatus[]) => rollUp(statuses.map((status) => ({ status })));

const PENDING: RollUp = { status: "paid", deliveryStatus: "pending", errorCode: null };
const DELIVERING: RollUp = { status: "fulfilling", deliveryStatus: "delivering", errorCode: null };
const ALL: RollUp = { status: "complete", deliveryStatus: "all_delivered", errorCode: null };
const PARTIAL: RollUp = { status: "complete", deliveryStatus: "partially_delivered", errorCode: "PARTIAL_FULFILMENT" };
const NONE: RollUp = { status: "complete", deliveryStatus: "failed", errorCode: "ALL_FAILED" };

/** Every list of 1 to `max` order statuses. */
function* carts(max: number): Generator<OrderStatus[]> {
  for (let n = 1; n <= max; n++) {
    for (let i = 0; i < STATUSES.length ** n; i++) yield Array.from({ length: n }, (_, k) => STATUSES[Math.floor(i / STATUSES.length ** k) % STATUSES.length]!);
  }
}

describe("rollUp", () => {
  it.each<[OrderStatus[], RollUp]>([
    [[], PENDING],
    [["created"], PENDING],
    [["created", "created"], PENDING],
    [["processing"], DELIVERING],
    [["created", "processing"], DELIVERING],
    [["created", "delivered"], DELIVERING],
    [["processing", "failed"], DELIVERING],
    [["refunded", "created"], DELIVERING],
    [["delivered"], ALL],
    [["delivered", "delivered", "delivered"], ALL],
    [["failed"], NONE],
    [["refunded"], NONE],
    [["failed", "refunded"], NONE],
    [["delivered", "failed"], PARTIAL],
    [["refunded", "delivered"], PARTIAL],
    [["delivered", "failed", "refunded"], PARTIAL],
  ])("%j -> %j", (statuses, expected) => {
    expect(of(...statuses)).toEqual(expected);
  });

  it("covers every cart of up to four orders: complete exactly when every order is final, classified by what was delivered", () => {
    let checked = 0;
    for (const cart of carts(4)) {
      const open = cart.filter((s) => s === "created" || s === "processing").length;
      const delivered = cart.filter((s) => s === "delivered").length;
      const expected = cart.every((s) => s === "created")
        ? PENDING
        : open > 0
          ? DELIVERING
          : delivered === cart.length
            ? ALL
            : delivered === 0
              ? NONE
              : PARTIAL;
      expect(of(...cart), JSON.stringify(cart)).toEqual(expected);
      // The order of the orders never matters.
      expect(of(...[...cart].reverse())).toEqual(expected);
      checked++;
    }
    expect(checked).toBe(5 + 25 + 125 + 625);
  });
});
