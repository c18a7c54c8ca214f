#!/usr/bin/env node
// The README's test command (`npm test`): its phases, each timed; the times are printed at the end (in CI's log too), so
// that where the suite's time goes is seen at every run. `npm run test:timings` runs the same phases with the runners'
// JSON reports and prints the slowest test files too (scripts/test-timings.ts); docs/testing.md says how to keep the
// time down.
//
// Vitest runs beside the check and the build: much of its time is spent waiting for blocks (the files that wait run
// first, vitest.config.mts), when the two cores are free for the check and the build. Their output is held and shown
// when each ends, so that it does not cut through Vitest's. Playwright runs last, once all three have passed: it needs
// the build, and the cores to itself.
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";

/** The phases of `npm test`, as package.json names them; `beside` ones run in turn beside the first, then the rest. */
export const PHASES = [
  { name: "unit and database tests (Vitest)", script: "test:unit" },
  { name: "check (lint, format, types)", script: "check", beside: true },
  // test:e2e's two steps, timed apart: the build is checked for types by the check above.
  { name: "production build", script: "build", env: { STOREFRONT_TYPECHECKED: "1" }, beside: true },
  { name: "browser and API tests (Playwright)", script: "test:browser" },
];

/** "12 min 3 s" / "41 s": a duration in seconds as a person reads it. */
export function duration(seconds) {
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}

/** The closing table: each phase run, its time and whether it passed; then the whole, from start to end. */
export function phaseTable(results, totalSeconds = results.reduce((sum, r) => sum + r.seconds, 0)) {
  const label = (r) => (r.beside ? `${r.name} (beside Vitest)` : r.name);
  const width = Math.max("in all".length, ...results.map((r) => label(r).length));
  const lines = results.map((r) => `  ${label(r).padEnd(width)}  ${duration(r.seconds).padStart(12)}  ${r.ok ? "passed" : "FAILED"}`);
  return ["Test phases:", ...lines, `  ${"in all".padEnd(width)}  ${duration(totalSeconds).padStart(12)}`].join("\n");
}

/**
 * Runs `npm run <script>`, answering its exit code. Its output is this process's, or with `hold` kept and written out
 * in one piece when it ends. It runs in a process group of its own, and a SIGINT or SIGTERM to this process reaches
 * the whole group (npm, its shell, the runner and their workers), so that stopping the suite stops everything it started.
 */
function run(script, env, hold = false) {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", script], {
      stdio: hold ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...env },
      detached: true,
    });
    const held = [];
    if (hold) for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => held.push(chunk));
    const forward = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group has ended already.
      }
    };
    process.on("SIGINT", forward).on("SIGTERM", forward);
    child.on("close", (code, signal) => {
      process.off("SIGINT", forward).off("SIGTERM", forward);
      if (hold) process.stdout.write(`\n──── npm run ${script} (ran beside Vitest) ────\n${Buffer.concat(held).toString()}\n`);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

/** Runs `phases` in turn (`hold`: their output held), stopping at the first failure; answers the results. */
async function inTurn(phases, envFor, hold) {
  const results = [];
  for (const phase of phases) {
    const started = performance.now();
    const code = await run(phase.script, { ...phase.env, ...envFor(phase) }, hold);
    results.push({ ...phase, seconds: (performance.now() - started) / 1000, ok: code === 0, code });
    if (code !== 0) break;
  }
  return results;
}

/**
 * Runs the phases (`envFor` adds variables to a phase's run): the first with the `beside` ones in turn next to it, then
 * the others in turn once all of those passed. Answers the results, in PHASES' order.
 */
export async function runPhases(envFor = () => ({})) {
  const started = performance.now();
  const [first, ...rest] = PHASES;
  const beside = rest.filter((p) => p.beside);
  const after = rest.filter((p) => !p.beside);
  const [firstResults, besideResults] = await Promise.all([inTurn([first], envFor, false), inTurn(beside, envFor, true)]);
  const results = [...firstResults, ...besideResults];
  if (results.every((r) => r.ok)) results.push(...(await inTurn(after, envFor, false)));
  console.log(`\n${phaseTable(results, (performance.now() - started) / 1000)}`);
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  void runPhases().then((results) => (process.exitCode = results.find((r) => !r.ok)?.code ?? 0));
}
