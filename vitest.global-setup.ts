import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { seedCatalogOnce } from "@/lib/catalog/seed";
import { openDatabase } from "@/lib/platform/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    /** Files holding a migrated PGlite database's dump, empty or with the demo catalog: test files start from them. */
    pgliteTemplates: { empty: string; catalog: string };
  }
}

/** Dumps a migrated in-memory database, prepared by `prepare`, to `file`. */
async function template(file: string, prepare?: Parameters<typeof openDatabase>[1]): Promise<void> {
  const database = await openDatabase({ driver: "pglite-memory" }, prepare);
  try {
    const dump = await database.dump?.();
    if (!dump) throw new Error("PGlite gave no dump");
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await database.close();
  }
}

/**
 * Makes the run's template databases: a test file loads one in well under a second, where a new cluster and the
 * migrations take about five seconds of CPU and the demo catalog two more, once per test file.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-test-template-"));
  const files = { empty: path.join(dir, "empty.tar.gz"), catalog: path.join(dir, "catalog.tar.gz") };
  await template(files.empty);
  await template(files.catalog, (db) => seedCatalogOnce(db, true));
  project.provide("pgliteTemplates", files);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
