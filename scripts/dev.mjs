// `npm run dev [-- next dev options]`: `next dev` in a process group of its own, which this launcher stops as a whole.
//
// - A signal to this process or to npm (SIGTERM from a process supervisor, SIGINT from Ctrl-C, SIGHUP) is handed to next dev,
//   which hands it to its server: the shop stops as on any stop (lib/platform/runtime/shutdown.ts), its devnet chains included.
//   Once next dev has ended, or after STOP_LIMIT_MS, whatever is left of the group is killed. A second signal kills the
//   group at once. Without this, a SIGTERM to `npm` left next dev (and the anvil chains it started) running.
// - Once the server answers, the pages and routes of a checkout are requested once in the background, so that they are
//   compiled before the shopper gets there (the cart and the invoice page take tens of seconds to compile the first
//   time). DEV_WARM_UP=0 turns that off. They go to the port next dev reports it listens on (with port 3000 taken, it
//   moves to the next free one), read from its output, which passes through this process; they carry `dev-warm-up` in
//   their query, which next.config.mjs keeps out of the request log (a 404 for the example invoice is no error).
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import os from "node:os";
import { announcedPort } from "./dev-output.mjs";

const require = createRequire(import.meta.url);

/** The shop's own stop takes at most 25 s (SHUTDOWN_LIMIT_MS); next dev is told to wait that long for its server. */
const STOP_LIMIT_MS = 32_000;

/** What a checkout visits, in the order a shopper does: requested once each, after the server answers. */
const WARM_UP = [
  ["GET", "/"],
  ["GET", "/products/warm-up"],
  ["GET", "/cart"],
  ["POST", "/api/sign-in/challenge"],
  ["POST", "/x402/connect"],
  ["GET", "/x402/invoice/create"],
  ["GET", "/invoices/inv_00000000000000000000000000"],
  ["GET", "/x402/invoice/status"],
  ["GET", "/x402/invoice/pay"],
  ["GET", "/api/dev/faucet"],
  // Then the merchant's first visits: a payment page, the dashboard's sign-in, balance and orders (each compiles while
  // it redirects to the sign-in), and a shopper's orders.
  ["GET", "/pay/inv_00000000000000000000000000"],
  ["GET", "/dashboard/sign-in"],
  ["GET", "/dashboard/balance"],
  ["GET", "/dashboard/orders"],
  ["GET", "/account/orders"],
];
/** The query that marks a warm-up request (next.config.mjs: not logged). */
const WARM_UP_QUERY = "dev-warm-up=1";
/** How long next dev may take to say where it listens before the warm-up gives up. */
const ANNOUNCE_LIMIT_MS = 120_000;

const args = process.argv.slice(2);

/** The value of a next dev option (`-p 4000`, `--port=4000`), if given. */
function option(short, long) {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === short || a === long) return args[i + 1];
    if (a.startsWith(`${long}=`)) return a.slice(long.length + 1);
  }
  return undefined;
}

const host = option("-H", "--hostname") ?? "127.0.0.1";
const baseAt = (port) => `http://${host.includes(":") ? `[${host}]` : host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host}:${port}`;

const child = spawn(process.execPath, [require.resolve("next/dist/bin/next"), "dev", ...args], {
  // Its output passes through this process, which reads where it listens; colours as on the terminal.
  stdio: ["inherit", "pipe", "inherit"],
  // A process group (and session) of its own: next dev, its server and the chains that the server starts.
  detached: true,
  env: {
    ...process.env,
    // The shop's own signal handler is the one (lib/platform/runtime/shutdown.ts); next dev waits for its server to stop.
    NEXT_MANUAL_SIG_HANDLE: "true",
    NEXT_EXIT_TIMEOUT_MS: process.env.NEXT_EXIT_TIMEOUT_MS ?? String(STOP_LIMIT_MS - 2000),
    ...(process.stdout.isTTY && !process.env.NO_COLOR && !process.env.FORCE_COLOR ? { FORCE_COLOR: "1" } : {}),
  },
});

/** The port next dev listens on, once it has said so in its output. */
const listening = new Promise((resolve) => {
  let seen = "";
  const read = (chunk) => {
    seen = (seen + chunk.toString()).slice(-2000);
    const port = announcedPort(seen);
    if (port) {
      child.stdout.off("data", read);
      resolve(port);
    }
  };
  child.stdout.on("data", read);
});
child.stdout.pipe(process.stdout);

/** SIGKILL to every process left in next dev's group. */
function killGroup() {
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // ESRCH: the group is gone.
  }
}

let stopping = null;
function stop(signal) {
  if (stopping) {
    console.error(`[dev] ${signal} again: stopping at once`);
    killGroup();
    return;
  }
  stopping = signal;
  try {
    child.kill(signal);
  } catch {
    // It ended already.
  }
  setTimeout(() => {
    console.error(`[dev] next dev did not stop within ${STOP_LIMIT_MS / 1000} s: killed`);
    killGroup();
  }, STOP_LIMIT_MS).unref();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stop(signal));

// npm hands a SIGTERM to its script's process (`exec` in package.json makes that this one) and ends without waiting for
// it; a parent killed outright hands nothing. Either way this process is orphaned: that is a stop too.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop("SIGTERM");
}, 500).unref();

child.on("exit", (code, signal) => {
  // Its server or a chain that outlived next dev (next dev killed, or ended on an error) goes with it.
  killGroup();
  process.exit(code ?? 128 + (os.constants.signals[signal ?? stopping ?? "SIGTERM"] ?? 0));
});
// This process ended otherwise (an error of its own): the group does not outlive it.
process.on("exit", killGroup);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function warmUp() {
  const port = await Promise.race([listening, sleep(ANNOUNCE_LIMIT_MS).then(() => undefined)]);
  if (!port) {
    if (!stopping) console.error(`[dev] next dev did not say which port it listens on within ${ANNOUNCE_LIMIT_MS / 1000} s: no warm-up`);
    return;
  }
  const base = baseAt(port);
  // The first request starts the server (its instrumentation: database, chains): any answer means it is up.
  for (;;) {
    if (stopping) return;
    const up = await fetch(`${base}/api/health?${WARM_UP_QUERY}`, { signal: AbortSignal.timeout(120_000) }).then(
      () => true,
      () => false,
    );
    if (up) break;
    await sleep(500);
  }
  const started = Date.now();
  console.log(`[dev] compiling the checkout pages in the background at ${base} (DEV_WARM_UP=0 to skip)`);
  for (const [method, path] of WARM_UP) {
    if (stopping) return;
    // One at a time: compiling two at once on a small machine is no faster. The answer does not matter.
    await fetch(`${base}${path}?${WARM_UP_QUERY}`, { method, redirect: "manual", signal: AbortSignal.timeout(180_000) })
      .then((res) => res.arrayBuffer())
      .catch(() => undefined);
  }
  if (!stopping) console.log(`[dev] checkout pages compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.env.DEV_WARM_UP !== "0") void warmUp();
