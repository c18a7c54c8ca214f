import { describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";

describe.skipIf(config().databaseUrl || config().redisUrl)("the process's rate limiter", () => {
  it("counts in memory on the embedded database, and is one instance across module reloads", async () => {
    const first = await (await import("./index")).getRateLimiter();
    expect(first.storeKind).toBe("memory");
    // `next dev` reloads modules on change; the counts must survive that.
    vi.resetModules();
    const reloaded = await import("./index");
    expect(await reloaded.getRateLimiter()).toBe(first);
  });
});
