// `npm run test:timings`: the README's test command (scripts/test-phases.mjs) with the runners' JSON reports, then where
// its time went: each phase, the Vitest projects, and the slowest test files and browser tests (scripts/timings.ts).
// The reports stay in timings-report/ for a closer look (not under test-results/, which Playwright empties as it starts).
import fs from "node:fs";
import path from "node:path";
import { duration, runPhases } from "./test-phases.mjs";
import { playwrightTimings, rows, vitestTimings, type PlaywrightSuite, type VitestReport } from "./timings";

const readJson = <T>(file: string): T | undefined => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as T) : undefined);

async function main() {
  const out = path.resolve("timings-report");
  const vitestJson = path.join(out, "vitest.json");
  const playwrightJson = path.join(out, "playwright.json");
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  // The runners write their JSON reports where these say (vitest.config.mts, e2e/playwright.config.ts).
  const results = await runPhases((phase): Record<string, string> =>
    phase.script === "test:unit"
      ? { TEST_TIMINGS_VITEST_JSON: vitestJson }
      : phase.script === "test:browser"
        ? { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson }
        : {},
  );
  const vitest = readJson<VitestReport>(vitestJson);
  if (vitest) {
    const t = vitestTimings(vitest);
    console.log(
      `\nVitest: ${t.tests} tests, ${duration(t.total)} in test files (several at a time: maxWorkers in vitest.config.mts). The slowest files:\n${rows(t.files)}`,
    );
  }
  const playwright = readJson<{ suites?: PlaywrightSuite[] }>(playwrightJson);
  if (playwright) {
    const t = playwrightTimings(playwright);
    console.log(`\nPlaywright: ${t.length} tests. The slowest:\n${rows(t)}`);
  }
  console.log(`\nReports: ${path.relative(process.cwd(), out)}/`);
  process.exitCode = results.find((r) => !r.ok)?.code ?? 0;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
