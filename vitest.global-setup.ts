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

/** Dumps a migrated in-memory database (from the dump in `from`, else a new cluster), prepared by `prepare`, to `file`. */
async function template(file: string, options: { from?: string; prepare?: Parameters<typeof openDatabase>[1] } = {}): Promise<void> {
  const load = options.from ? new Blob([fs.readFileSync(options.from)]) : undefined;
  const database = await openDatabase({ driver: "pglite-memory", ...(load ? { loadDataDir: load } : {}) }, options.prepare);
  try {
    const dump = await database.dump?.();
    if (!dump) throw new Error("PGlite gave no dump");
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await database.close();
  }
}

/** The run's templates, made by the first project that asks (pglite and cli both do) and removed after the last. */
type Templates = { files: Promise<{ empty: string; catalog: string }>; dir: string; users: number };
const shared = globalThis as { __storefrontTestTemplates?: Templates };

/**
 * Makes the run's template databases: a test file loads one in well under a second, where a new cluster and the
 * migrations take about five seconds of CPU and the demo catalog two more, once per test file. They are made once for
 * the run, whichever projects use them, and the catalog one starts from the empty one's dump (no second migration).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  if (!shared.__storefrontTestTemplates) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-test-template-"));
    const files = { empty: path.join(dir, "empty.tar.gz"), catalog: path.join(dir, "catalog.tar.gz") };
    const made = (async () => {
      await template(files.empty);
      await template(files.catalog, { from: files.empty, prepare: (db) => seedCatalogOnce(db, true) });
      return files;
    })();
    shared.__storefrontTestTemplates = { files: made, dir, users: 0 };
  }
  const templates = shared.__storefrontTestTemplates;
  templates.users++;
  project.provide("pgliteTemplates", await templates.files);
  return () => {
    if (--templates.users > 0) return;
    fs.rmSync(templates.dir, { recursive: true, force: true });
    delete shared.__storefrontTestTemplates;
  };
}
