import { createPublicClient, http } from "viem";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { migrationStatus, queryRows } from "@/lib/db/client";
import { getPayments } from "@/lib/payments/payments";
import type { PaymentNetwork } from "@/lib/payments/networks";
import { sql } from "drizzle-orm";
import { LOOP_STALE_MS, loopAges } from "./background";

export type Check = { ok: boolean; detail: string; ms: number };

export type Readiness = { ready: boolean; checks: Record<string, Check>; problems: string[] };

const CHECK_TIMEOUT_MS = 3_000;

/** Runs a check with a time limit: a check that does not answer in time failed. */
async function timed(work: () => Promise<string>): Promise<Check> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const detail = await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${CHECK_TIMEOUT_MS / 1000} s`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, detail, ms: Date.now() - started };
  } catch (err) {
    return { ok: false, detail: err instanceof Error ? err.message : String(err), ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

class NotReady extends Error {}

async function chainCheck(n: PaymentNetwork): Promise<string> {
  if (n.kind === "evm") {
    const block = await createPublicClient({ transport: http(n.rpcUrl, { timeout: CHECK_TIMEOUT_MS, retryCount: 0 }) }).getBlockNumber();
    return `block ${block}`;
  }
  const res = await fetch(n.rpcUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot" }),
    signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
  });
  const body = (await res.json()) as { result?: number; error?: { message?: string } };
  if (typeof body.result !== "number") throw new NotReady(`RPC answered ${res.status}: ${body.error?.message ?? "no slot"}`);
  return `slot ${body.result}`;
}

/**
 * Whether this server can do its work (GET /api/health?ready=1): the database answers and has every migration, each
 * chain of the mode answers its RPC, and the background loops pass (on Vercel they run from cron instead).
 * `problems` names each failed check in a sentence.
 */
export async function readiness(): Promise<Readiness> {
  const c = config();
  const checks: Record<string, Check> = {};
  checks.database = await timed(async () => {
    const db = await getDb();
    await queryRows(db, sql`SELECT 1 AS ok`);
    const { applied, pending } = await migrationStatus(db);
    if (!applied) throw new NotReady(`${pending} migration(s) not applied: run npm run db:migrate`);
    return "reachable, migrations applied";
  });
  const payments = await timed(async () => {
    await getPayments();
    return "ready";
  });
  if (!payments.ok) checks.payments = payments;
  else {
    const { networks } = await getPayments();
    const results = await Promise.all(networks.map((n) => timed(() => chainCheck(n))));
    networks.forEach((n, i) => (checks[`chain ${n.network}`] = { ...results[i]!, detail: `${n.name}: ${results[i]!.detail}` }));
  }
  if (c.vercel) checks.background = { ok: true, detail: "runs from Vercel Cron (GET /api/cron/tick) and after payments", ms: 0 };
  else {
    const ages = loopAges();
    for (const [name, limit] of Object.entries(LOOP_STALE_MS)) {
      const age = ages[name];
      checks[`loop ${name}`] =
        age === undefined
          ? { ok: false, detail: "has not finished a pass yet", ms: 0 }
          : { ok: age <= limit, detail: age <= limit ? `last pass ${Math.round(age / 1000)} s ago` : `no pass for ${Math.round(age / 1000)} s`, ms: 0 };
    }
  }
  const problems = Object.entries(checks)
    .filter(([, check]) => !check.ok)
    .map(([name, check]) => `${name}: ${check.detail}`);
  return { ready: problems.length === 0, checks, problems };
}
