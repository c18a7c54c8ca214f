import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SHOP_HEAP_MB } from "./shop-server";

describe("the shop's heap ceiling", () => {
  it("is the same for npm start, the Docker image and the benchmarks", () => {
    const flag = `--max-old-space-size=${SHOP_HEAP_MB}`;
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    // npm start puts it before the caller's NODE_OPTIONS, so that a --max-old-space-size given there wins.
    expect(pkg.scripts.start).toContain(`NODE_OPTIONS="${flag} \${NODE_OPTIONS:-}"`);
    expect(fs.readFileSync("Dockerfile", "utf8")).toMatch(new RegExp(`^\\s*NODE_OPTIONS=${flag} \\\\$`, "m"));
  });
});
