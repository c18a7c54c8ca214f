import { describe, expect, it } from "vitest";
import { duration, phaseTable } from "./test-phases.mjs";
import { playwrightTimings, rows, vitestTimings } from "./timings";

describe("the test suite's timings", () => {
  it("sums a Vitest file over its runs (PGlite, then PostgreSQL), the slowest first", () => {
    const file = (name: string, seconds: number) => ({ name: `/repo/${name}`, startTime: 1_000, endTime: 1_000 + seconds * 1000 });
    const t = vitestTimings(
      { numTotalTests: 7, testResults: [file("a.db.test.ts", 30), file("b.test.ts", 5), file("a.db.test.ts", 20), file("c.db.test.ts", 40)] },
      "/repo",
    );
    expect(t).toEqual({
      tests: 7,
      files: [
        { name: "a.db.test.ts (2 runs)", seconds: 50 },
        { name: "c.db.test.ts", seconds: 40 },
        { name: "b.test.ts", seconds: 5 },
      ],
      total: 95,
    });
  });

  it("finds Playwright's tests in nested suites, with their retries' time, named by project and file", () => {
    const slowest = playwrightTimings({
      suites: [
        {
          file: "x402/pay.spec.ts",
          specs: [{ title: "pays", tests: [{ projectName: "x402-api", results: [{ duration: 1_500 }, { duration: 500 }] }] }],
          suites: [{ specs: [{ title: "inner", tests: [{ projectName: "phone", results: [{ duration: 3_000 }] }] }] }],
        },
      ],
    });
    expect(slowest).toEqual([
      { name: "[phone] x402/pay.spec.ts: inner", seconds: 3 },
      { name: "[x402-api] x402/pay.spec.ts: pays", seconds: 2 },
    ]);
    expect(rows(slowest, 1)).toBe("           3 s  [phone] x402/pay.spec.ts: inner");
  });

  it("says durations as a person reads them, and closes with each phase and the whole", () => {
    expect([duration(41.4), duration(60), duration(723.6)]).toEqual(["41 s", "1 min 0 s", "12 min 4 s"]);
    const table = phaseTable([
      { name: "check", script: "check", seconds: 44, ok: true, code: 0 },
      { name: "unit", script: "test:unit", seconds: 700, ok: false, code: 1 },
    ]);
    expect(table.split("\n")).toEqual(["Test phases:", "  check           44 s  passed", "  unit     11 min 40 s  FAILED", "  in all   12 min 24 s"]);
    // Phases that ran beside another are named so, and the whole is the time from start to end, not their sum.
    const together = phaseTable(
      [
        { name: "unit", script: "test:unit", seconds: 300, ok: true, code: 0 },
        { name: "build", script: "build", seconds: 90, ok: true, code: 0, beside: true },
      ],
      310,
    );
    expect(together.split("\n")).toEqual([
      "Test phases:",
      "  unit                      5 min 0 s  passed",
      "  build (beside Vitest)    1 min 30 s  passed",
      "  in all                   5 min 10 s",
    ]);
  });
});
