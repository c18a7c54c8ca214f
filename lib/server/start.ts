import { config, ConfigError, serverRequirements } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { adminToken } from "@/lib/merchants/admin-token";
import { getPayments } from "@/lib/payments/payments";
import { startBackgroundWork } from "./background";
import { onShutdown } from "./shutdown";

/**
 * Start-up of a server process: configuration, database, payments (in devnet mode the local chains), and a
 * clean stop on shutdown. Anything wrong stops the process with a message that names it.
 */
export async function startServer(): Promise<void> {
  try {
    const c = config();
    const missing = serverRequirements(c);
    if (missing.length > 0) throw new ConfigError(missing);
    const started = Date.now();
    const database = await getDatabase();
    onShutdown(() => database.close());
    const payments = await getPayments();
    // On Vercel no process lives between requests: the background work runs as rounds, from Vercel Cron
    // (GET /api/cron/tick) and after each payment (lib/server/poll-loop.ts).
    if (!c.vercel) await startBackgroundWork();
    const where = database.driver === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${c.dataDir}`;
    console.log(`[storefront] ${c.networkMode} mode, database: ${where}, ready in ${Date.now() - started} ms`);
    for (const n of payments.networks) console.log(`[storefront]   ${n.name.padEnd(20)} ${n.network.padEnd(52)} ${n.rpcUrl}`);
    const admin = adminToken(c);
    if (!admin) console.log("[storefront] admin API (/api/admin) disabled: set ADMIN_TOKEN to enable it");
    else if (!c.adminToken) console.log(`[storefront] admin token (devnet, kept in ${c.dataDir}/secrets/admin-token): ${admin}`);
  } catch (err) {
    console.error(`[storefront] cannot start: ${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
