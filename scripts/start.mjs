// `npm start`: the standalone server that `npm run build` makes (.next/standalone/server.js, the server the Docker image
// runs), started from the project's folder. The standalone server works in its own folder, so a relative DATA_DIR
// (default ./.data) is resolved here first: the data stays where `npm run dev` keeps it. `-p PORT` and `-H HOST` are
// taken as `next start` takes them (PORT and HOSTNAME otherwise; 3000 on every interface by default). Signals are passed
// on, and the server's exit is this process's. package.json sets the heap flags and malloc's thresholds around it, and
// `exec`s this process in its shell's place: npm hands a SIGTERM to its script's process and ends without waiting, and a
// shell in between would end without passing it on, leaving the server and its devnet chains running.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const server = path.resolve(".next", "standalone", "server.js");
if (!fs.existsSync(server)) {
  console.error("No production build in .next/standalone: run `npm run build` first (or `npm run dev` to develop).");
  process.exit(1);
}

const env = { ...process.env, DATA_DIR: path.resolve(process.env.DATA_DIR || ".data") };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const [flag = "", inline] = args[i].split("=", 2);
  const value = inline ?? args[++i];
  const name = { "-p": "PORT", "--port": "PORT", "-H": "HOSTNAME", "--hostname": "HOSTNAME" }[flag];
  if (!name || value === undefined) {
    console.error(`npm start: ${name ? `${flag} needs a value` : `unknown option ${flag}`} (it takes -p PORT and -H HOST)`);
    process.exit(2);
  }
  env[name] = value;
}

const child = spawn(process.execPath, [server], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
// A parent killed outright hands nothing on: orphaned, this process stops the server as on a SIGTERM.
const parent = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphaned);
  child.kill("SIGTERM");
}, 500).unref();
child.on("exit", (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
