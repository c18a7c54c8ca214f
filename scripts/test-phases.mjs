#!/usr/bin/env node
// The README's test command (`npm test`): its phases in order, stopping at the first that fails, each timed; the times
// are printed at the end (in CI's log too), so that where the suite's time goes is seen at every run.
// `npm run test:timings` runs the same phases with the runners' JSON reports and prints the slowest test files too
// (scripts/test-timings.mjs); docs/testing.md says how to keep the time down.
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";

/** The phases of `npm test`, as package.json names them. */
export const PHASES = [
  { name: "check (lint, format, types)", script: "check" },
  { name: "unit and database tests (Vitest)", script: "test:unit" },
  // test:e2e's two steps, timed apart: the build is checked for types by the check above.
  { name: "production build", script: "build", env: { STOREFRONT_TYPECHECKED: "1" } },
  { name: "browser and API tests (Playwright)", script: "test:browser" },
];

/** "12 min 3 s" / "41 s": a duration in seconds as a person reads it. */
export function duration(seconds) {
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

/** The closing table: each phase run, its time and whether it passed; the whole. */
export function phaseTable(results) {
  const width = Math.max("in all".length, ...results.map((r) => r.name.length));
  const lines = results.map((r) => `  ${r.name.padEnd(width)}  ${duration(r.seconds).padStart(12)}  ${r.ok ? "passed" : "FAILED"}`);
  const total = results.reduce((sum, r) => sum + r.seconds, 0);
  return ["Test phases:", ...lines, `  ${"in all".padEnd(width)}  ${duration(total).padStart(12)}`].join("\n");
}

/**
 * Runs `npm run <script>` with this process's output, answering its exit code. It runs in a process group of its own,
 * and a SIGINT or SIGTERM to this process reaches the whole group (npm, its shell, the runner and their workers), so
 * that stopping the suite stops everything it started.
 */
function run(script, env) {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", script], { stdio: "inherit", env: { ...process.env, ...env }, detached: true });
    const forward = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group has ended already.
      }
    };
    process.on("SIGINT", forward).on("SIGTERM", forward);
    child.on("exit", (code, signal) => {
      process.off("SIGINT", forward).off("SIGTERM", forward);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

/** Runs the phases (`envFor` adds variables to a phase's run); stops at the first failure. Answers the results. */
export async function runPhases(envFor = () => ({})) {
  const results = [];
  for (const phase of PHASES) {
    const started = performance.now();
    const code = await run(phase.script, { ...phase.env, ...envFor(phase) });
    results.push({ ...phase, seconds: (performance.now() - started) / 1000, ok: code === 0, code });
    if (code !== 0) break;
  }
  console.log(`\n${phaseTable(results)}`);
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  void runPhases().then((results) => (process.exitCode = results.find((r) => !r.ok)?.code ?? 0));
}
