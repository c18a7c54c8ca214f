import { config } from "@/lib/platform/config";
import { getDatabase, getDb } from "@/lib/platform/db";
import { startWorker } from "@/lib/fulfilment";
import { drainSettlements } from "@/lib/payments";
import { startWebhookWorker } from "@/lib/webhooks";
import { handBack } from "./hand-back";
import { syncUpstreamIfDue, upstreamProvider } from "@/lib/supply";
import { processPayout, upkeep as runUpkeep } from "./round";
import { watchPaymentAddresses } from "./address-watch";
import { startPollLoop } from "@/lib/platform/runtime/poll-loop";
import { onShutdown } from "@/lib/platform/runtime/shutdown";
import { log } from "@/lib/platform/log";

const MAINTENANCE_MS = 10_000;
/** The longest pause of the fulfilment and webhook workers while they find nothing to do. */
const IDLE_MAX_MS = 2_000;
/**
 * A claim whose holder looks gone is freed by the upkeep once it has looked gone this long, i.e. at the next pass: a
 * live server whose session was cut has opened it again by then, under the same key (lib/platform/db/presence.ts).
 */
const DEAD_HOLDER_GRACE_MS = 9_000;
/** How often the upstream catalog sync looks whether a pass is due (or a paused one may resume). */
const SUPPLY_CHECK_MS = 30_000;
/**
 * How often the invoices' own addresses are read (lib/server/address-watch.ts): about a block of the slower networks
 * (Base and Polygon mine every 2 s); a round reads every open address of a network in a few calls.
 */
const ADDRESS_WATCH_MS = 2_000;

/**
 * When each loop of this process last finished a pass (readiness: a loop that stopped passing is not alive). On
 * globalThis: instrumentation.ts and the health route load this module in bundles of their own.
 */
const globalForLoops = globalThis as typeof globalThis & { __storefrontLoopPasses?: Map<string, number> };
const lastPass = (globalForLoops.__storefrontLoopPasses ??= new Map<string, number>());

/** The loops of this process and how long ago each finished a pass, in ms (empty: none runs here). */
export function loopAges(now = Date.now()): Record<string, number> {
  return Object.fromEntries([...lastPass].map(([name, at]) => [name, now - at]));
}

/** The loops of a Node server. */
export const LOOPS = ["fulfilment", "webhooks", "upkeep", "addresses"] as const;

/** The longest a loop may go without finishing a pass before readiness reports it (its interval plus a slow pass). */
export const LOOP_STALE_MS = 5 * 60_000;

/**
 * The background work of a Node server: the fulfilment worker (orders of paid invoices, refunds of failed ones),
 * the webhook worker (merchants' invoice messages, with retries) and payment upkeep (expire unpaid invoices, decide
 * every open settlement from the chain: invoices', fees' and balance top-ups'), and with an upstream supplier its
 * catalog sync. The same jobs make one bounded round on Vercel (lib/server/round.ts).
 */
export async function startBackgroundWork(): Promise<void> {
  const c = config();
  const passed = (name: (typeof LOOPS)[number]) => () => lastPass.set(name, Date.now());
  // Idle, the workers look every 2 s rather than every 0.5 s and 1 s: what a request makes due (a payment, a message)
  // kicks them, and retries come due at most 2 s late.
  // The upstream supplier's orders are bought from it (lib/supply, above the fulfilment).
  const worker = startWorker(getDb, { payout: await processPayout(), upstream: upstreamProvider, idleMaxMs: IDLE_MAX_MS, onPass: passed("fulfilment") });
  const webhooks = startWebhookWorker(getDb, {
    mode: c.networkMode,
    retryBaseSeconds: c.webhookRetryBaseSeconds,
    idleMaxMs: IDLE_MAX_MS,
    onPass: passed("webhooks"),
  });
  const upkeep = startPollLoop(
    "upkeep",
    async () => {
      try {
        // Payments whose settlement was sent but not confirmed, or whose server died settling them.
        const { settlements } = await runUpkeep();
        if (settlements.settled > 0) worker.kick();
        // On PostgreSQL, the claims of a server that ended since (lib/server/hand-back.ts).
        const database = await getDatabase();
        if (database.driver === "postgres") {
          const freed = await handBack(database.db, "dead", { graceMs: DEAD_HOLDER_GRACE_MS, why: "claims of a server that ended are taken again" });
          if (freed.orders.length > 0) worker.kick();
          if (freed.webhooks.length > 0) webhooks.kick();
        }
      } catch (err) {
        log.error({ err, job: "upkeep" }, "payment upkeep failed");
      } finally {
        passed("upkeep")();
      }
    },
    MAINTENANCE_MS,
  );

  // New payments stop first and those in flight reach a recorded outcome; then the workers; the database last.
  onShutdown(async () => {
    const { unfinished } = await drainSettlements(20_000);
    if (unfinished > 0) log.warn({ unfinished }, "settlements still running at shutdown: the next start reconciles them");
  }, "intake");
  // The upstream supplier's catalog (UPSTREAM_API_URL): at start, then whenever due (the sync decides; a pass that is
  // not due asks nothing), in a loop of its own so that a slow upstream never holds up the payment upkeep.
  const supply = c.upstream
    ? startPollLoop(
        "upstream sync",
        async () => {
          await syncUpstreamIfDue(await getDb());
        },
        SUPPLY_CHECK_MS,
      )
    : undefined;

  const addresses = startPollLoop(
    "addresses",
    async () => {
      try {
        await watchPaymentAddresses();
      } finally {
        passed("addresses")();
      }
    },
    ADDRESS_WATCH_MS,
  );

  onShutdown(async () => {
    await Promise.all([upkeep.stop(), worker.stop(), webhooks.stop(), supply?.stop(), addresses.stop()]);
  }, "work");
}
