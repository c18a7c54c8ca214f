// `npm run admin -- supply sync`: the upstream supplier's catalog, synced now.
import { parseArgs } from "node:util";
import { supplySyncWire } from "@/lib/api/admin/wire";
import { config } from "@/lib/platform/config";
import { withDatabase } from "@/lib/platform/db";
import { syncUpstreamNow, type SyncReport } from "@/lib/supply";
import { shopHoldingData, shopJson } from "./admin-shop";

export const SUPPLY_HELP = `  supply sync [--url URL]
      Syncs the upstream supplier's catalog (UPSTREAM_API_URL) now: new and changed products and their costs,
      products gone upstream made unavailable. A rate limit or the hourly product quota pauses it; the server
      goes on from where it stopped.`;

/** Runs a `supply` command; returns the exit code (1 when no upstream is configured or the sync paused, 2 for a usage error). */
export async function supplyCommand(command: string | undefined, args: string[]): Promise<number> {
  if (command !== "sync") {
    console.error(`Unknown supply command: ${command ?? "(none)"}\n\n${SUPPLY_HELP}`);
    return 2;
  }
  const { values } = parseArgs({ args, options: { url: { type: "string" } } });
  if (!config().upstream) {
    console.error("No upstream supplier is configured (UPSTREAM_API_URL).");
    return 1;
  }
  const shop = shopHoldingData(values.url);
  const report: SyncReport | undefined = shop
    ? await shopJson(shop, "POST", "/api/admin/supply/sync", supplySyncWire)
    : await withDatabase("admin supply sync", syncUpstreamNow);
  if (!report) {
    console.error("No upstream supplier is configured (UPSTREAM_API_URL).");
    return 1;
  }
  console.log(`Upstream sync ${report.status}: ${report.pages} page(s), ${report.imported} product(s) imported, ${report.gone} gone upstream.`);
  for (const r of report.rejected) console.log(`  skipped ${r.slug ?? `row ${r.row}`}: ${r.errors.join("; ")}`);
  if (report.resume_at) console.log(`Resumes at ${report.resume_at}${report.error ? ` (${report.error})` : ""}.`);
  return report.status === "paused" ? 1 : 0;
}
