import { describe, expect, it } from "vitest";
import { INTRO, formatValue, performanceMarkdown, type Figure } from "./figures";

const bare = { perSecond: 203, p50: 32.4, p95: 105.2, requests: 2030 };
const list = { perSecond: 162.4, p50: 38.1, p95: 120.3, requests: 1624 };

describe("formatValue", () => {
  it("writes a load with its share of the bare route's requests a second", () => {
    expect(formatValue({ load: list, bare })).toBe("162 req/s, p50 38 ms, p95 120 ms: **80 %** of bare");
    expect(formatValue({ load: { perSecond: 310, p50: 3.24, p95: 10.3, requests: 3100 } })).toBe("310 req/s, p50 3.2 ms, p95 10 ms");
  });

  it("writes times in milliseconds or blocks, with the percentiles measured", () => {
    expect(formatValue({ times: { p50: 14.2 }, unit: "ms" })).toBe("p50 14 ms");
    expect(formatValue({ times: { p50: 1.34, p95: 1.62, max: 1.71 }, unit: "blocks" })).toBe("p50 1.3, p95 1.6, max 1.7 blocks");
  });

  it("writes CPU time beside the bare route's", () => {
    expect(formatValue({ cpuMs: 23.14, bareCpuMs: 3.21 })).toBe("23.1 ms (bare route: 3.2 ms)");
  });
});

describe("performanceMarkdown", () => {
  const figures: Figure[] = [
    { table: "Catalog under load", column: "PGlite (embedded)", row: "bare route handler", value: { load: bare } },
    { table: "Catalog under load", column: "PGlite (embedded)", row: "`GET /api/v2/products?limit=50`", value: { load: list, bare } },
    { table: "Catalog under load", column: "PostgreSQL", row: "bare route handler", value: { load: { ...bare, perSecond: 369 } } },
    { table: "JavaScript per page (gzip)", column: "JavaScript", row: "/cart", value: { text: "164 KB in 40 files | a pipe" } },
  ];
  const doc = performanceMarkdown({ date: "2026-11-27", machine: "2 cores, 24 GiB, Node v20.19.0", settings: "8 clients unless said", figures });

  it("writes the intro, the run, and a table per benchmark with its columns in the order measured", () => {
    expect(doc.startsWith(`# Performance\n\n<!-- Written by \`npm run bench\``)).toBe(true);
    expect(doc).toContain(INTRO);
    expect(doc).toContain("Latest run: 2026-11-27, 2 cores, 24 GiB, Node v20.19.0; 8 clients unless said.");
    expect(doc).toContain(
      [
        "## Catalog under load",
        "",
        "| | PGlite (embedded) | PostgreSQL |",
        "|---|---|---|",
        "| bare route handler | 203 req/s, p50 32 ms, p95 105 ms | 369 req/s, p50 32 ms, p95 105 ms |",
        // A figure the run did not measure on a database is a dash, not a gap that shifts the row.
        "| `GET /api/v2/products?limit=50` | 162 req/s, p50 38 ms, p95 120 ms: **80 %** of bare | – |",
      ].join("\n"),
    );
    expect(doc).toContain("| /cart | 164 KB in 40 files \\| a pipe |");
    expect(doc.endsWith("|\n")).toBe(true);
  });

  it("holds one run only: the same figures give the same file, whatever was there before", () => {
    expect(performanceMarkdown({ date: "2026-11-27", machine: "2 cores, 24 GiB, Node v20.19.0", settings: "8 clients unless said", figures })).toBe(doc);
    expect(doc.match(/Latest run:/g)).toHaveLength(1);
    expect(doc.match(/## Catalog under load/g)).toHaveLength(1);
  });
});
