// Vitest only (it loads the modules anew with `vi`): the browser tests import scripts/testing.ts, not this file.
import { format } from "node:util";
import { vi } from "vitest";

/**
 * Runs an admin command as `runAdmin` does, in this process: the same code (scripts/admin-cli.ts) and exit code, and
 * what it printed to stdout and stderr, without a `tsx` process of its own (about two seconds of CPU each). The
 * environment is `runAdmin`'s for the command's time, and its modules are loaded anew, as in a new process: the config
 * it parses is the one of that environment. Not for a test where this process holds the data folder as the shop
 * server: the lock tells its holder by the pid, and the command must be another process to be refused or sent through
 * the shop (admin-through-shop.test.ts and admin-backup.test.ts keep `runAdmin`).
 */
export async function runAdminHere(args: string[], dataDir: string, env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const saved = { ...process.env };
  Object.assign(process.env, { DATA_DIR: dataDir, DATABASE_URL: "", ...env });
  const out: string[] = [];
  const print = (...parts: unknown[]) => void out.push(`${format(...parts)}\n`);
  const write = (chunk: string | Uint8Array) => {
    out.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString());
    return true;
  };
  const consoleWas = { log: console.log, info: console.info, warn: console.warn, error: console.error };
  const writeWas = { out: process.stdout.write, err: process.stderr.write };
  Object.assign(console, { log: print, info: print, warn: print, error: print });
  process.stdout.write = write as typeof process.stdout.write;
  process.stderr.write = write as typeof process.stderr.write;
  try {
    vi.resetModules();
    const { adminCommand } = await import("./admin-cli");
    return { code: await adminCommand(args), out: out.join("") };
  } finally {
    Object.assign(console, consoleWas);
    process.stdout.write = writeWas.out;
    process.stderr.write = writeWas.err;
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}
