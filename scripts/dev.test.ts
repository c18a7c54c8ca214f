import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { announcedPort } from "./dev-output.mjs";
import { launch, portOpen, waitFor } from "./process-tree";

// `npm run dev` as a newcomer runs it, on the default port, with port 3000 taken by another program: next dev moves to
// the next free port, and the launcher's warm-up goes there, not to the other program. Then stopped as a process
// supervisor stops it, with a SIGTERM to the process it started (npm).
// Skipped off Linux only: the test finds what is left of the launcher's process group in /proc. CI runs on Linux.
describe.skipIf(process.platform !== "linux")("npm run dev", () => {
  it(
    "warms up the port next dev moved to when 3000 is taken, and stops as a whole on a SIGTERM to npm: next dev, its server and the devnet chains end, and the port closes",
    { timeout: 150_000 },
    async () => {
      // Another program on port 3000 (unless one is there already): it records what reaches it, and answers 503 (another
      // test that finds it where no shop should be, asking the default port, is refused as by a closed port).
      const reached: string[] = [];
      const other = http.createServer((req, res) => (reached.push(req.url ?? ""), res.writeHead(503).end("another program")));
      const warmUpReached = () => reached.filter((url) => url.includes("dev-warm-up") || url.startsWith("/api/health"));
      const held = await new Promise<boolean>((resolve) => {
        other.once("error", () => resolve(false));
        other.listen(3000, "127.0.0.1", () => resolve(true));
      });
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-dev-"));
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NETWORK_MODE: "devnet", NEXT_TELEMETRY_DISABLED: "1" };
      for (const name of ["NODE_ENV", "TEST_DB", "VITEST", "VITEST_POOL_ID", "VITEST_WORKER_ID", "PORT", "DEV_WARM_UP"]) delete env[name];
      const dev = launch(["run", "dev", "--", "-H", "127.0.0.1"], { env });
      const output = dev.output;
      try {
        await waitFor("next dev says where it listens", () => announcedPort(output()) !== undefined, 60_000);
        const port = announcedPort(output())!;
        expect(port, output()).not.toBe(3000);
        // Up: it answers, and its chains (anvil processes) are running.
        await waitFor(
          "the dev server answers",
          async () => (await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(60_000) }).catch(() => null)) !== null,
          90_000,
        );
        // The warm-up starts at the port next dev moved to; nothing of it reached the other program.
        await waitFor("the warm-up starts", () => output().includes("[dev] compiling the checkout pages"), 30_000);
        expect(output()).toContain(`[dev] compiling the checkout pages in the background at http://127.0.0.1:${port}`);
        if (held) expect(warmUpReached()).toEqual([]);
        // The log holds the developer's requests, not the warm-up's (a 404 for its example invoice is no error), and no
        // notice of an experiment under the shop's framed block.
        expect(output()).not.toMatch(/dev-warm-up=|Experiments/);
        const commands = dev.commands();
        expect(
          commands.some((c) => c.includes("next dev")),
          output(),
        ).toBe(true);
        expect(
          commands.some((c) => c.includes("anvil")),
          "the devnet's chains",
        ).toBe(true);

        await dev.stop();
        expect(await portOpen(port)).toBe(false);
        if (held) expect(warmUpReached()).toEqual([]);
      } finally {
        dev.kill();
        // A chain killed just now may still be writing its state file: retried, and never in place of the test's error.
        try {
          fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        } catch (err) {
          console.error(`could not remove ${dataDir}: ${(err as Error).message}`);
        }
        await new Promise<void>((r) => (held ? other.close(() => r()) : r()));
      }
    },
  );
});
