// Where the test suite's time went, from the runners' JSON reports: used by `npm run test:timings` (test-timings.ts).
import path from "node:path";
import { duration } from "./test-phases.mjs";

/** How many of the slowest files and browser tests are listed. */
const SLOWEST = 15;

type Timed = { name: string; seconds: number };

/** What this needs of Vitest's JSON report: one result per file and project (names no project), with its start and end. */
export type VitestReport = { numTotalTests?: number; testResults?: { name: string; startTime: number; endTime: number }[] };

/**
 * The time of each Vitest file, summed over its runs (a database test runs on PGlite and again on PostgreSQL), the
 * slowest first, and the sum of all (two files run at once: twice the wall clock at most).
 */
export function vitestTimings(report: VitestReport, root = process.cwd()): { tests: number; files: Timed[]; total: number } {
  const files = new Map<string, { seconds: number; runs: number }>();
  for (const r of report.testResults ?? []) {
    const file = path.relative(root, r.name);
    const known = files.get(file) ?? { seconds: 0, runs: 0 };
    files.set(file, { seconds: known.seconds + Math.max(0, (r.endTime - r.startTime) / 1000), runs: known.runs + 1 });
  }
  const timed = [...files.entries()].map(([file, t]) => ({ name: t.runs > 1 ? `${file} (${t.runs} runs)` : file, seconds: t.seconds }));
  return {
    tests: report.numTotalTests ?? 0,
    files: timed.sort((a, b) => b.seconds - a.seconds),
    total: timed.reduce((sum, t) => sum + t.seconds, 0),
  };
}

/** What this needs of Playwright's JSON report: suites of specs (nested), each spec's tests with their runs. */
export type PlaywrightSuite = {
  file?: string;
  specs?: { title: string; tests?: { projectName: string; results?: { duration?: number }[] }[] }[];
  suites?: PlaywrightSuite[];
};

/** Each browser test's time (its runs, retries included), the slowest first, named by project, file and title. */
export function playwrightTimings(report: { suites?: PlaywrightSuite[] }): Timed[] {
  const tests: Timed[] = [];
  const walk = (suite: PlaywrightSuite, file: string | undefined) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const ms = (t.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
        tests.push({ name: `[${t.projectName}] ${file ?? "?"}: ${spec.title}`, seconds: ms / 1000 });
      }
    }
    for (const child of suite.suites ?? []) walk(child, file ?? child.file);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file);
  return tests.sort((a, b) => b.seconds - a.seconds);
}

/** Rows of "time  name", the slowest first. */
export function rows(items: Timed[], limit = SLOWEST): string {
  return items
    .slice(0, limit)
    .map((i) => `  ${duration(i.seconds).padStart(12)}  ${i.name}`)
    .join("\n");
}
