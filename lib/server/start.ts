import { config, ConfigError } from "@/lib/config";
import { getDatabase } from "@/lib/db";

/** Start-up of a server process: configuration, database, and a clean close on shutdown. */
export async function startServer(): Promise<void> {
  try {
    const c = config();
    const started = Date.now();
    const database = await getDatabase();
    const where = database.driver === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${c.dataDir}`;
    console.log(`[storefront] ${c.networkMode} mode, database: ${where}, ready in ${Date.now() - started} ms`);
    const close = (signal: NodeJS.Signals) => {
      database.close().finally(() => process.kill(process.pid, signal));
    };
    process.once("SIGINT", close);
    process.once("SIGTERM", close);
  } catch (err) {
    console.error(`[storefront] cannot start: ${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
