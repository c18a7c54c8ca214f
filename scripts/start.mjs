// `npm start`: the standalone server that `npm run build` makes (.next/standalone/server.js, the server the Docker image
// runs), started from the project's folder. The standalone server works in its own folder, so a relative DATA_DIR
// (default ./.data) is resolved here first: the data stays where `npm run dev` keeps it. `-p PORT` and `-H HOST` are
// taken as `next start` takes them (PORT and HOSTNAME otherwise; 3000 on every interface by default). Signals are passed
// on, and the server's exit is this process's. package.json sets the heap flags and malloc's thresholds around it.
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
child.on("exit", (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
