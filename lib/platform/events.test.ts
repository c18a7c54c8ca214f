import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/platform/db";
import { emit, on, runAfterCommit } from "./events";

const registry = globalThis as typeof globalThis & { __storefrontListeners?: Map<string, unknown> };
let wired: Map<string, unknown> | undefined;
beforeEach(() => {
  // The wiring of the whole shop is loaded for every test (vitest.setup.ts): set it aside.
  wired = registry.__storefrontListeners;
  registry.__storefrontListeners = new Map();
});
afterEach(() => {
  registry.__storefrontListeners = wired;
});

const tx = {} as Db;
const now = new Date("2026-11-25T12:00:00Z");

describe("domain events", () => {
  it("run every listener in the emitter's transaction, in order, and hand back the work for after the commit", async () => {
    const seen: string[] = [];
    const kick = () => seen.push("kicked");
    on("invoice.final", "first", async (t, e) => {
      expect(t).toBe(tx);
      seen.push(`first ${e.invoiceId}`);
      return { afterCommit: kick };
    });
    on("invoice.final", "second", async () => void seen.push("second"));
    on("invoice.final", "third", async () => ({ afterCommit: kick }));
    const after = await emit(tx, "invoice.final", { invoiceId: "inv_1", now });
    expect(seen).toEqual(["first inv_1", "second"]);
    runAfterCommit(after);
    // The same work asked for twice runs once.
    expect(seen).toEqual(["first inv_1", "second", "kicked"]);
  });

  it("replace a listener registered again under its name (a reload), rather than run it twice", async () => {
    let calls = 0;
    on("order.failed", "refund", async () => void (calls += 1));
    on("order.failed", "refund", async () => void (calls += 10));
    await emit(tx, "order.failed", { orderId: "ord_1", now });
    expect(calls).toBe(10);
  });

  it("refuse an event nobody listens to: the transaction rolls back rather than skip what must happen with it", async () => {
    await expect(emit(tx, "order.failed", { orderId: "ord_1", now })).rejects.toThrow(/No listener for the domain event order.failed/);
  });

  it("stop at a failing listener, so that its transaction rolls back", async () => {
    const seen: string[] = [];
    on("invoice.final", "fails", async () => {
      throw new Error("outbox full");
    });
    on("invoice.final", "later", async () => void seen.push("later"));
    await expect(emit(tx, "invoice.final", { invoiceId: "inv_1", now })).rejects.toThrow("outbox full");
    expect(seen).toEqual([]);
  });
});
