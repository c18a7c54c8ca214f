import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SHOP_MALLOC_MMAP_THRESHOLD, SHOP_MALLOC_TRIM_THRESHOLD, SHOP_NODE_OPTIONS } from "./shop-server";

describe("the shop's heap flags", () => {
  it("are the same for npm start, the Docker image and the benchmarks", () => {
    const flags = SHOP_NODE_OPTIONS;
    expect(flags).toMatch(/^--max-old-space-size=\d+ --max-semi-space-size=\d+$/);
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    // npm start puts them before the caller's NODE_OPTIONS, so that a flag given there wins.
    expect(pkg.scripts.start).toContain(`NODE_OPTIONS="${flags} \${NODE_OPTIONS:-}"`);
    expect(fs.readFileSync("Dockerfile", "utf8")).toMatch(new RegExp(`^\\s*NODE_OPTIONS="${flags}" \\\\$`, "m"));
  });

  it("and malloc's mmap and trim thresholds too (a caller's own value wins in npm start)", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    const dockerfile = fs.readFileSync("Dockerfile", "utf8");
    for (const [name, value] of [
      ["MALLOC_MMAP_THRESHOLD_", SHOP_MALLOC_MMAP_THRESHOLD],
      ["MALLOC_TRIM_THRESHOLD_", SHOP_MALLOC_TRIM_THRESHOLD],
    ] as const) {
      expect(pkg.scripts.start).toContain(`${name}=\${${name}:-${value}}`);
      expect(dockerfile).toMatch(new RegExp(`^\\s*${name}=${value} \\\\$`, "m"));
    }
  });
});
