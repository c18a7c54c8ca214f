import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { alive, commandLine, descendants, portOpen, waitFor } from "./process-tree";
import { freePort } from "./shop-server";

// `npm run dev` under a process supervisor, which stops it with a SIGTERM to the process it started (npm).
// Skipped off Linux only: the test finds what is left of the launcher's process group in /proc. CI runs on Linux.
describe.skipIf(process.platform !== "linux")("npm run dev", () => {
  it("stops as a whole on a SIGTERM to npm: next dev, its server and the devnet chains end, and the port closes", { timeout: 150_000 }, async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-dev-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      NETWORK_MODE: "devnet",
      DEV_WARM_UP: "0",
      NEXT_TELEMETRY_DISABLED: "1",
    };
    for (const name of ["NODE_ENV", "TEST_DB", "VITEST", "VITEST_POOL_ID", "VITEST_WORKER_ID", "PORT"]) delete env[name];
    const npm = spawn("npm", ["run", "dev", "--", "-p", String(port), "-H", "127.0.0.1"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    npm.stdout.on("data", (d: Buffer) => (output += d.toString()));
    npm.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const seen = new Set<number>();
    try {
      // Up: it answers, and its chains (anvil processes) are running.
      await waitFor(
        "the dev server answers",
        async () => (await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(60_000) }).catch(() => null)) !== null,
        90_000,
      );
      const processes = descendants(npm.pid!);
      processes.forEach((p) => seen.add(p));
      const commands = processes.map(commandLine);
      expect(
        commands.some((c) => c.includes("next dev")),
        output,
      ).toBe(true);
      expect(
        commands.some((c) => c.includes("anvil")),
        "the devnet's chains",
      ).toBe(true);

      npm.kill("SIGTERM");
      await waitFor("every process of npm run dev ended", () => [...seen].every((p) => !alive(p)), 40_000);
      expect(await portOpen(port)).toBe(false);
    } finally {
      for (const p of [npm.pid!, ...seen]) if (alive(p)) process.kill(p, "SIGKILL");
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
