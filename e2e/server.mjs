// Starts the built shop (`next start`) for the browser tests on a fresh, empty database, and removes it afterwards:
//   node e2e/server.mjs PORT            -> PGlite in a new temporary data folder (the embedded default)
//   node e2e/server.mjs PORT postgres   -> a new database on the server in TEST_DATABASE_URL
//   node e2e/server.mjs PORT postgres-shared -> the database E2E_SHARED_DATABASE on that server, made by whichever
//                                              of the servers sharing it starts first (several shops, one database)
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const [port = "3107", mode = "pglite"] = process.argv.slice(2);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-e2e-"));
// The shop stops in its own order on SIGTERM (lib/platform/runtime/shutdown.ts), as `npm start` sets it up.
const env = { ...process.env, DATA_DIR: dataDir, PORT: port, NEXT_MANUAL_SIG_HANDLE: "true" };
delete env.DATABASE_URL;

let dropDatabase = async () => {};
if (mode === "postgres" || mode === "postgres-shared") {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error(`${mode} mode needs TEST_DATABASE_URL`);
  const shared = mode === "postgres-shared";
  const name = shared ? process.env.E2E_SHARED_DATABASE : `storefront_e2e_${randomBytes(5).toString("hex")}`;
  if (!name || !/^[a-z0-9_]+$/.test(name)) throw new Error("postgres-shared mode needs E2E_SHARED_DATABASE (lower-case letters, digits, _)");
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`).catch((err) => {
    // The other server made it first: it existed already (42P04), or both made it at once and the other's committed
    // first (23505 on pg_database's name). Its migrations run under a lock (lib/platform/db/client.ts).
    if (!(shared && (err.code === "42P04" || err.code === "23505"))) throw err;
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  // A shop on PostgreSQL needs SESSION_SECRET (servers sharing a database must sign the same tokens).
  env.SESSION_SECRET ||= randomBytes(24).toString("hex");
  dropDatabase = shared ? () => dropWhenLastToLeave(serverUrl, name) : () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/**
 * A shared database is dropped by the last of its servers to stop: while another server is still connected, dropping
 * it would cut that server off mid-run (it would log lost connections and failed queries until it stops too). A server
 * that has just stopped may leave its sessions for a moment, and servers are stopped together: the others are waited
 * for, five seconds at most.
 */
async function dropWhenLastToLeave(serverUrl, name) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    for (let waited = 0; ; waited += 200) {
      const { rows } = await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [name]);
      if (rows[0].n === 0) break;
      if (waited >= 5000) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    await client.query(`DROP DATABASE IF EXISTS ${name}`).catch((err) => {
      // Another server connected meanwhile (55006: in use): it drops it when it stops.
      if (err.code !== "55006") throw err;
    });
  } finally {
    await client.end();
  }
}

// E2E_STANDALONE=1: the standalone server by itself, as the Docker image holds it (a copy of .next/standalone
// without the devnet's packages: scripts/standalone-prune.mjs), for a shop that is not on the devnet.
const standalone = process.env.E2E_STANDALONE === "1";
let serverDir;
if (standalone) {
  serverDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-standalone-"));
  fs.cpSync(path.join(".next", "standalone"), serverDir, { recursive: true, verbatimSymlinks: true });
  execFileSync(process.execPath, ["scripts/standalone-prune.mjs", serverDir], { stdio: "inherit" });
}
// Idle keep-alive connections stay open longer than a test's pause between two requests: with Node's default 5 s, the
// server may close a connection just as the test's HTTP client sends on it again (ECONNRESET).
const KEEP_ALIVE_MS = "65000";
const child = standalone
  ? spawn(process.execPath, [path.join(serverDir, "server.js")], {
      stdio: "inherit",
      env: { ...env, HOSTNAME: "127.0.0.1", KEEP_ALIVE_TIMEOUT: KEEP_ALIVE_MS },
    })
  : spawn(
      process.execPath,
      [path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", port, "-H", "127.0.0.1", "--keepAliveTimeout", KEEP_ALIVE_MS],
      { stdio: "inherit", env },
    );
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", async (code, signal) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (serverDir) fs.rmSync(serverDir, { recursive: true, force: true });
  await dropDatabase().catch((err) => console.error(`could not drop the e2e database: ${err.message}`));
  process.exit(code ?? (signal ? 1 : 0));
});
