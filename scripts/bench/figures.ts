// The figures of one `npm run bench` run, and docs/performance.md written from them. The file holds the latest full
// run's figures only: each run replaces it, so it never grows into a log of past runs (their reasons of being belong
// in the commits and in ARCHITECTURE.md).
import type { Figures } from "./load";

/** A measured value: a load (beside the bare route's, taken in turns with it), a few times, CPU time, or a text. */
export type Value =
  | { load: Figures; bare?: Figures }
  | { times: { p50: number; p95?: number; max?: number }; unit: "ms" | "blocks" }
  | { cpuMs: number; bareCpuMs: number }
  | { text: string };

/** A value at its place: a table, a row of it, and a column (the database the shop ran on, as a rule). */
export type Figure = { table: string; row: string; column: string; value: Value };

/** One run: when, on what machine, with which settings, and what it measured. */
export type Run = { date: string; machine: string; settings: string; figures: Figure[] };

export const INTRO = `\`npm run bench\` builds the shop, runs each benchmark against that production build (\`next start\`) on the
devnet, and measures a bare Next.js route handler in the same run on the same machine: a tiny app
(\`scripts/bench/bare-route\`) that the benchmark builds and starts itself, answering 50 products of the merchant API's
shape and size. These machines are noisy (the bare route alone has measured from 203 to 471 req/s in runs of one
day): the share of the bare route's figure ("% of bare") is the figure that travels, and to keep it the same
machine's, the bare route's load and the shop's are taken in turns, a second of each at a time. The shop runs with
\`BENCHMARK_LIMITS=1\` (every rate limit a thousandfold, still counted; refused outside the devnet), so that no load
is cut off by a 429.

How to read the tables: with several clients on two cores every request waits for the others, so the one-client rows
are the figure of a request's own time. Settlements are timed in blocks of the devnet's chain, which mines one a
second. The PostgreSQL server works on the same cores as the shop and the load. A column left out was not measured
(PostgreSQL needs \`BENCH_DATABASE_URL\`, or root and Debian's \`postgresql\`, for a server the benchmark starts).

\`npm run bench\` rewrites this file at the end of a full run; \`npm run bench -- catalog pages\` runs some of the
benchmarks (\`catalog\`, \`x402\`, \`checkout\`, \`settlement\`, \`pages\`, \`addresses\`) and only prints them. The address
watcher (\`addresses\`) runs in the benchmark's own process, on an anvil chain and an embedded database of its own. \`BENCH_SECONDS\` sets
each load's length (5), \`BENCH_SOAK_SECONDS\` the mixed load after which the server's memory is read (60; 300 for five
minutes), \`BENCH_NODE_OPTIONS\` the shop's \`NODE_OPTIONS\`, \`SHOP_LOG=FILE\` keeps the shop's output. What a Next.js
proxy costs a route: \`npx tsx scripts/bench/proxy-cost.ts\`. Why the shop is built the way these figures show:
[ARCHITECTURE.md](../ARCHITECTURE.md).`;

/** Milliseconds as the tables write them: a tenth below 10 ms, whole above. */
const ms = (n: number) => (Math.abs(n) < 10 ? n.toFixed(1) : n.toFixed(0));

/** One cell of a table. */
export function formatValue(v: Value): string {
  if ("load" in v) {
    const { perSecond, p50, p95 } = v.load;
    const share = v.bare ? `: **${((100 * perSecond) / v.bare.perSecond).toFixed(0)} %** of bare` : "";
    return `${perSecond.toFixed(0)} req/s, p50 ${ms(p50)} ms, p95 ${ms(p95)} ms${share}`;
  }
  if ("times" in v) {
    const n = v.unit === "ms" ? ms : (b: number) => b.toFixed(1);
    const { p50, p95, max } = v.times;
    const parts = [`p50 ${n(p50)}`, ...(p95 === undefined ? [] : [`p95 ${n(p95)}`]), ...(max === undefined ? [] : [`max ${n(max)}`])];
    return `${parts.join(", ")} ${v.unit}`;
  }
  if ("cpuMs" in v) return `${v.cpuMs.toFixed(1)} ms (bare route: ${v.bareCpuMs.toFixed(1)} ms)`;
  return v.text;
}

/** A cell's text inside a Markdown table: a pipe would end the cell. */
const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");

/** docs/performance.md for a run: the fixed intro, the run's machine and settings, then a table per benchmark. */
export function performanceMarkdown(run: Run): string {
  // Tables, their rows and columns in the order the run measured them.
  const tables = new Map<string, { rows: string[]; columns: string[]; values: Map<string, Value> }>();
  for (const f of run.figures) {
    let t = tables.get(f.table);
    if (!t) tables.set(f.table, (t = { rows: [], columns: [], values: new Map() }));
    if (!t.rows.includes(f.row)) t.rows.push(f.row);
    if (!t.columns.includes(f.column)) t.columns.push(f.column);
    t.values.set(JSON.stringify([f.row, f.column]), f.value);
  }
  const out = [
    "# Performance",
    "",
    "<!-- Written by `npm run bench` (scripts/bench/figures.ts): each full run replaces this file. -->",
    "",
    INTRO,
    "",
    `Latest run: ${run.date}, ${run.machine}; ${run.settings}.`,
  ];
  for (const [title, t] of tables) {
    out.push("", `## ${title}`, "", `| | ${t.columns.map(cell).join(" | ")} |`, `|---|${t.columns.map(() => "---|").join("")}`);
    for (const row of t.rows) {
      const values = t.columns.map((c) => {
        const v = t.values.get(JSON.stringify([row, c]));
        return v ? cell(formatValue(v)) : "–";
      });
      out.push(`| ${cell(row)} | ${values.join(" | ")} |`);
    }
  }
  return out.join("\n") + "\n";
}
