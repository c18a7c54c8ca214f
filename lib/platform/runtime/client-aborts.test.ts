import { EventEmitter } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { isClientAbort, quietClientAborts } from "./client-aborts";

const abort = () => Object.assign(new Error("aborted"), { code: "ECONNRESET" });

describe("a client that closes its connection mid-request", () => {
  it("is told from other errors", () => {
    expect(isClientAbort(abort())).toBe(true);
    expect(isClientAbort(new Error("aborted"))).toBe(false);
    expect(isClientAbort(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))).toBe(false);
    expect(isClientAbort("aborted")).toBe(false);
  });

  it("is neither an uncaught exception nor an error line; anything else still is", () => {
    const proc = new EventEmitter() as unknown as NodeJS.Process;
    const uncaught = vi.fn();
    proc.on("uncaughtException", uncaught);
    const printed = vi.fn();
    const cons = { error: printed };
    quietClientAborts(proc, cons);
    quietClientAborts(proc, cons); // once only

    expect(proc.emit("uncaughtException", abort())).toBe(true);
    cons.error("⨯", abort());
    expect(uncaught).not.toHaveBeenCalled();
    expect(printed).not.toHaveBeenCalled();

    const other = new Error("boom");
    proc.emit("uncaughtException", other);
    cons.error("⨯", other);
    expect(uncaught).toHaveBeenCalledWith(other);
    expect(printed).toHaveBeenCalledWith("⨯", other);
  });
});
