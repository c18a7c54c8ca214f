import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, useAsProcessDatabase, type TestPrepare } from "@/test/db";
import { getDevnet, type Devnet } from "@/lib/devnet";

/**
 * For a test file that pays on the devnet's chains through route handlers: before its tests, a data folder of its own
 * (DATA_DIR: the devnet's state and keys), its database (prepared by `prepare`) as the process's database, and the
 * devnet started, handed to `use`; after them, all of it stopped and removed. Call it at the top of the file, before
 * hooks of the file's own that use them.
 */
export function processTestDevnet(name: string, use: (ctx: { database: Database; devnet: Devnet }) => void, prepare?: TestPrepare): void {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `storefront-${name}-`));
  let database: Database | undefined;
  let devnet: Devnet | undefined;
  let restore: (() => void) | undefined;
  beforeAll(async () => {
    process.env.DATA_DIR = dataDir;
    database = await openTestDatabase(prepare);
    restore = useAsProcessDatabase(database);
    devnet = await getDevnet();
    use({ database, devnet });
  }, 120_000);
  afterAll(async () => {
    restore?.();
    await devnet?.stop();
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
}
