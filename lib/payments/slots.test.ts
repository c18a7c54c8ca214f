import { describe, expect, it } from "vitest";
import { Slots } from "./slots";

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("Slots", () => {
  it("lets `size` holders in at once and the others in the order they asked", async () => {
    const slots = new Slots(2);
    const order: number[] = [];
    const held = await Promise.all([slots.take(), slots.take()]);
    const waiting = [3, 4, 5].map((i) => slots.take().then((slot) => (order.push(i), slot)));
    await tick();
    expect({ held: slots.held, queued: slots.queued, order }).toEqual({ held: 2, queued: 3, order: [] });

    held[1]!.release();
    await tick();
    expect(order).toEqual([3]);
    held[0]!.release();
    await tick();
    expect(order).toEqual([3, 4]);
    expect({ held: slots.held, queued: slots.queued }).toEqual({ held: 2, queued: 1 });
    (await waiting[0]!).release();
    await tick();
    expect(order).toEqual([3, 4, 5]);
  });

  it("counts a release once, however often it is called", async () => {
    const slots = new Slots(1);
    const slot = await slots.take();
    slot.release();
    slot.release();
    expect(slots.held).toBe(0);
    const a = await slots.take();
    let second = false;
    void slots.take().then(() => (second = true));
    await tick();
    expect(second).toBe(false);
    a.release();
    await tick();
    expect(second).toBe(true);
    expect(slots.held).toBe(1);
  });

  it("does not let a newcomer pass those already waiting", async () => {
    const slots = new Slots(1);
    const first = await slots.take();
    const order: string[] = [];
    void slots.take().then((s) => (order.push("waiting"), s.release()));
    first.release();
    // Freed while someone waits: the place is theirs, not the next caller's.
    void slots.take().then((s) => (order.push("newcomer"), s.release()));
    await tick();
    await tick();
    expect(order).toEqual(["waiting", "newcomer"]);
  });

  it("refuses a size that is not a whole number of at least 1", () => {
    expect(() => new Slots(0)).toThrow(RangeError);
    expect(() => new Slots(1.5)).toThrow(RangeError);
  });
});
