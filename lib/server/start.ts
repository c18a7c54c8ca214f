import { config, ConfigError, serverRequirements } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { startPresence } from "@/lib/db/presence";
import { releaseClaims, releaseDeadClaims } from "@/lib/fulfilment";
import { adminToken } from "@/lib/merchants/admin-token";
import { getPayments } from "@/lib/payments/payments";
import { startBackgroundWork } from "./background";
import { onShutdown } from "@/lib/runtime/shutdown";
import { log } from "@/lib/log";

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
    // The embedded database is this process's alone: an order claimed in it was claimed by a process that ended in the
    // delivery (killed). It is delivered again now rather than once that claim lapses, two minutes on.
    if (database.driver === "pglite") {
      const freed = await releaseClaims(database.db);
      if (freed.length > 0) log.warn({ orders: freed.slice(0, 20), count: freed.length }, "orders claimed by a process that ended are delivered again");
    } else if (!c.vercel) {
      // PostgreSQL, which other servers may share: this process's claims name its presence, a session that holds an
      // advisory lock while the process lives; the claims of a process that ended (this server before a crash, or
      // another) are freed now, and then by the upkeep loop, rather than when they lapse. (Vercel's rounds name none.)
      const presence = await startPresence(c.databaseUrlUnpooled ?? c.databaseUrl!);
      onShutdown(() => presence.stop());
      const freed = await releaseDeadClaims(database.db);
      if (freed.length > 0) log.warn({ orders: freed.slice(0, 20), count: freed.length }, "orders claimed by a process that ended are delivered again");
    }
    const payments = await getPayments();
    // On Vercel no process lives between requests: the background work runs as rounds, from Vercel Cron
    // (GET /api/cron/tick) and after each payment (lib/runtime/poll-loop.ts).
    if (!c.vercel) await startBackgroundWork();
    const where = database.driver === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${c.dataDir}`;
    log.info(
      {
        mode: c.networkMode,
        database: where,
        ready_ms: Date.now() - started,
        networks: payments.networks.map((n) => ({ name: n.name, network: n.network, rpc: n.rpcUrl })),
      },
      `storefront ready: ${c.networkMode} mode, database: ${where}`,
    );
    const admin = adminToken(c);
    if (!admin) log.info("admin API (/api/admin) disabled: set ADMIN_TOKEN to enable it");
    // The devnet's own admin token, for the operator at the console (a devnet has no money to guard).
    else if (!c.adminToken) log.info({ admin_token_file: `${c.dataDir}/secrets/admin-token` }, `admin token (devnet): ${admin}`);
  } catch (err) {
    log.fatal(`cannot start: ${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
