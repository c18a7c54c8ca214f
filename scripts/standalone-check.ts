// After `npm run build`: the standalone server by itself, as a deploy copies it (`node server.js` from a copy of
// .next/standalone, outside the project, in devnet mode on a fresh embedded database): it serves the shop, its local
// chains run from the copied packages (litesvm's native build, anvil's executable), and SIGTERM stops it in order
// (chains stopped, process gone) within the shutdown bound. The copy and the data folder are removed afterwards.
//   npm run check:standalone
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SHUTDOWN_LIMIT_MS } from "@/lib/platform/runtime/shutdown";
import { freePort } from "./shop-server";

const STANDALONE = path.join(".next", "standalone");
const START_LIMIT_MS = 120_000;
// The ordered stop's own bound, and a little more, as a platform (Docker: stop_grace_period) waits.
const STOP_LIMIT_MS = SHUTDOWN_LIMIT_MS + 5_000;

let abort = () => {};
let tmp = "";
// Ctrl-C or a CI timeout: nothing is left running or on disk.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    try {
      abort();
    } catch {}
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    process.exit(1);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

async function main(): Promise<number> {
  if (!fs.existsSync(path.join(STANDALONE, "server.js")) || !fs.existsSync(path.join(STANDALONE, ".next", "static"))) {
    console.error("No complete standalone server in .next/standalone: run `npm run build` first.");
    return 2;
  }
  const started = Date.now();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-standalone-check-"));
  const serverDir = path.join(tmp, "app");
  const dataDir = path.join(tmp, "data");
  let server: ChildProcess | undefined;
  let passed = 0;
  let failed = 0;
  const check = (name: string, ok: boolean, detail = "") => {
    if (ok) passed++;
    else failed++;
    console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? `: ${detail}` : ""}`);
  };
  const timings: string[] = [];
  try {
    fs.cpSync(STANDALONE, serverDir, { recursive: true, verbatimSymlinks: true });
    timings.push(`copy ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // Only what a container would set: nothing from this shell (no DATABASE_URL, DEVNET_URL, ANVIL_BIN, NODE_PATH).
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      NEXT_MANUAL_SIG_HANDLE: "true",
      HOSTNAME: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      NETWORK_MODE: "devnet",
      LOG_LEVEL: "warn",
    };
    const log: string[] = [];
    const bootAt = Date.now();
    // Started from another folder: server.js moves to its own, and nothing may depend on the caller's.
    // Its own process group, so that a failed check can end it with its chains (the stop itself signals the server only).
    server = spawn(process.execPath, [path.join(serverDir, "server.js")], { cwd: tmp, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    const group = server.pid!;
    abort = () => process.kill(-group, "SIGKILL");
    for (const stream of [server.stdout!, server.stderr!]) stream.on("data", (d: Buffer) => log.push(d.toString()));
    const dump = () => console.error(`--- server output ---\n${log.join("").slice(-4000)}`);

    // Up: the home page answers once start-up (migrations, seed, chains) is done.
    let home: Response | undefined;
    while (!home) {
      if (server.exitCode !== null || server.signalCode !== null) {
        dump();
        throw new Error(`the standalone server exited during start-up (${server.exitCode ?? server.signalCode})`);
      }
      if (Date.now() - bootAt > START_LIMIT_MS) {
        dump();
        throw new Error(`the standalone server did not answer within ${START_LIMIT_MS / 1000} s`);
      }
      home = await fetch(`${base}/`).catch(() => undefined);
      if (!home) await sleep(250);
    }
    timings.push(`start ${((Date.now() - bootAt) / 1000).toFixed(1)} s`);
    const html = await home.text();
    check("GET /", home.status === 200, String(home.status));

    const get = async (name: string, url: string, ok: (res: Response, body: string) => boolean = (res) => res.status === 200) => {
      const res = await fetch(`${base}${url}`);
      const body = await res.text();
      check(`${name} GET ${url}`, ok(res, body), String(res.status));
      return { res, body };
    };
    const asset = html.match(/\/_next\/static\/[^"'\s)]+\.(?:js|css)/)?.[0];
    check("the home page links its static assets", Boolean(asset));
    if (asset) await get("static asset", asset);
    const product = html.match(/href="(\/products\/[a-z0-9-]+)"/)?.[1];
    check("the home page links a product", Boolean(product));
    if (product) await get("product page", product, (res, body) => res.status === 200 && body.includes("<h1"));
    await get("public file", "/robots.txt");
    await get("product image", `/img/products/${product?.split("/").pop() ?? "none"}.svg`);
    await get("merchant API reference", "/api/v2/openapi.json", (res, body) => res.status === 200 && body.includes('"openapi"'));
    await get("merchant API without credentials", "/api/v2/ping", (res) => res.status === 401);
    await get("x402 API reference", "/x402/openapi.json");
    await get("x402 fee", "/x402/checkout/info", (res) => res.status === 402);
    const { body: devnetBody } = await get("local chains", "/api/dev/devnet");
    const rpcUrls = (JSON.parse(devnetBody) as { networks: { rpcUrl: string }[] }).networks.map((n) => n.rpcUrl);
    check("the local chains are listed", rpcUrls.length === 4, `${rpcUrls.length} RPC URLs`);

    // Ready: database and migrations, the four chains, and a first pass of every background loop.
    const readyAt = Date.now();
    let ready: Response | undefined;
    let readyBody = "";
    for (;;) {
      ready = await fetch(`${base}/api/health?ready=1`);
      readyBody = await ready.text();
      if (ready.status === 200 || Date.now() - readyAt > 30_000) break;
      await sleep(500);
    }
    check("GET /api/health?ready=1", ready.status === 200, ready.status === 200 ? "ready" : readyBody.slice(0, 300));

    // Stop: SIGTERM (what docker stop sends) ends it in order, the chains with it.
    const stopAt = Date.now();
    server.kill("SIGTERM");
    const stopped = await Promise.race([exited(server), sleep(STOP_LIMIT_MS).then(() => undefined)]);
    timings.push(`stop ${((Date.now() - stopAt) / 1000).toFixed(1)} s`);
    check(
      "SIGTERM stops the server in time",
      // It ends as SIGTERM ends a process (by the signal, or with its code 143 as PID 1).
      stopped !== undefined && (stopped.signal === "SIGTERM" || stopped.code === 143),
      stopped ? `exit ${stopped.code ?? stopped.signal}` : `still running after ${STOP_LIMIT_MS / 1000} s`,
    );
    if (stopped && stopped.signal !== "SIGTERM" && stopped.code !== 143) dump();
    const stillUp = await Promise.all(
      rpcUrls.map((url) =>
        fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: '{"jsonrpc":"2.0","id":1,"method":"getHealth"}',
          signal: AbortSignal.timeout(2_000),
        }).then(
          () => url,
          () => undefined,
        ),
      ),
    );
    check(
      "the local chains stop with the server",
      stillUp.every((u) => u === undefined),
      stillUp.filter(Boolean).join(", "),
    );
    check("shutdown logged no error", !/"level":"(error|fatal)"/.test(log.join("")));
  } catch (err) {
    check("standalone server", false, err instanceof Error ? err.message : String(err));
  } finally {
    try {
      abort(); // anything left of the server's group: the server after a failed stop, or a chain it left behind
    } catch {
      // the group is gone: the usual case
    }
    if (server) await exited(server);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`standalone check (${timings.join(", ")}; ${((Date.now() - started) / 1000).toFixed(1)} s in all)`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
