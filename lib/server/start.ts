import { config, ConfigError, serverRequirements } from "@/lib/platform/config";
import { openProcessDatabase, type Database } from "@/lib/platform/db";
import { claimHolder, startPresence } from "@/lib/platform/db/presence";
import { handBack } from "./hand-back";
import { adminToken } from "@/lib/merchants";
import { seedCatalogOnce } from "@/lib/catalog";
import { getPayments } from "@/lib/payments";
import { startBackgroundWork } from "./background";
import { startRoundsAfterResponse } from "./after-response";
import { listeningPort, recordServer } from "./address-record";
import { adminTokenFile, devnetBanner, shopOrigin } from "./devnet-banner";
import { onShutdown } from "@/lib/platform/runtime/shutdown";
import { log } from "@/lib/platform/log";

/**
 * The shop's database as a server opens it at start, before anything else queries it: migrated, then seeded
 * (seedCatalogOnce: the demo catalog into an empty database when the mode asks for it, the shop's own products
 * once). The seeding's module, with the demo catalog's data, is loaded only when it runs: not on Vercel, whose
 * functions neither migrate nor seed (the build's `npm run db:migrate` does both).
 */
export function openShopDatabase(): Promise<Database> {
  return openProcessDatabase(seedCatalogOnce);
}

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
    const database = await openShopDatabase();
    onShutdown(() => database.close());
    // The embedded database is this process's alone: a claim found in it (an order in delivery, a refund followed, a
    // settlement, a webhook) was made by a process that ended (killed); it is taken again now rather than when it lapses.
    // At a stop, after the workers' last round, every claim is handed back the same way.
    if (database.driver === "pglite") {
      await handBack(database.db, "all", { why: "claims of a process that ended are taken again" });
      onShutdown(async () => void (await handBack(database.db, "all", { why: "claims handed back at the stop" })), "handback");
    } else if (!c.vercel) {
      // PostgreSQL, which other servers may share: this process's claims name its presence, a session that holds an
      // advisory lock while the process lives; the claims of a process that ended (this server before a crash, or
      // another) are freed now, and then by the upkeep loop, rather than when they lapse. (Vercel's rounds name none.)
      // At a stop, the claims naming this server's presence are handed back before its session ends.
      const presence = await startPresence(c.databaseUrlUnpooled ?? c.databaseUrl!);
      onShutdown(() => presence.stop());
      await handBack(database.db, "dead", { why: "claims of a server that ended are taken again" });
      onShutdown(async () => {
        const holder = claimHolder();
        if (holder !== null) await handBack(database.db, { holder }, { why: "claims handed back at the stop" });
      }, "handback");
    }
    const payments = await getPayments();
    // On Vercel no process lives between requests: the background work runs as rounds, from Vercel Cron
    // (GET /api/cron/tick) and after the response of a request that kicks a worker (lib/server/after-response.ts).
    if (!c.vercel) await startBackgroundWork();
    else startRoundsAfterResponse();
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
    const port = listeningPort(c.port);
    // The tools on this machine (`npm run admin`, `npm run agent`) find the shop of the data folder by this record, on
    // whatever port it runs.
    if (!c.vercel) {
      const forget = recordServer(c.dataDir, { url: `http://127.0.0.1:${port}`, mode: c.networkMode });
      onShutdown(async () => forget());
    }
    const admin = adminToken(c);
    if (!admin) log.info("admin API (/api/admin) disabled: set ADMIN_TOKEN to enable it");
    // The devnet's own admin token (a devnet has no money to guard) is for the operator at the console: printed plainly
    // below, never in a log line, which log collectors keep.
    else if (!c.adminToken) log.info({ admin_token_file: adminTokenFile(c.dataDir) }, "admin token (devnet): printed at the console, kept in admin_token_file");
    if (c.networkMode === "devnet") console.log(devnetBanner({ url: shopOrigin(port), adminToken: c.adminToken ? undefined : admin, dataDir: c.dataDir }));
  } catch (err) {
    log.fatal(`cannot start: ${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
