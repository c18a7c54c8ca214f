// `npm run db:migrate`: applies the committed migrations (lib/platform/db/migrations) and seeds an empty database when the mode
// asks for it, then exits. The database is the server's: DATABASE_URL (through DATABASE_URL_UNPOOLED when set, for a
// pooled URL) or the embedded one in DATA_DIR. Safe to run while servers run and from several places at once: one
// migrates, the others wait for it and find nothing to do. A plain Node server also migrates at start; on Vercel
// this runs in the build (vercel.json).
import { seedCatalogOnce } from "@/lib/catalog/seed";
import { config, ConfigError } from "@/lib/platform/config";
import { defaultOpenOptions } from "@/lib/platform/db";
import { migrationStatus, openDatabase } from "@/lib/platform/db/client";
import { DataDirLockedError } from "@/lib/platform/db/lock";

async function main(): Promise<number> {
  const c = config();
  const options = defaultOpenOptions("db:migrate");
  // Migrated, then seeded as a server's start does (lib/server/start.ts), under the same lock on PostgreSQL.
  const database = await openDatabase(options.driver === "postgres" ? { ...options, migrate: true, max: 1 } : options, (db) => seedCatalogOnce(db));
  try {
    const { applied } = await migrationStatus(database.db);
    const where = c.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${c.dataDir}`;
    console.log(applied ? `Migrations applied: ${where} is up to date.` : `Migrations incomplete on ${where}.`);
    return applied ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof ConfigError || err instanceof DataDirLockedError) console.error(err.message);
    else console.error("db:migrate failed:", err);
    process.exit(1);
  },
);
