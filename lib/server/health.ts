import { createPublicClient, http } from "viem";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db";
import { migrationStatus, queryRows } from "@/lib/db/client";
import { getPayments } from "@/lib/payments/payments";
import type { PaymentNetwork } from "@/lib/payments/networks";
import { sql } from "drizzle-orm";
import { LOOP_STALE_MS, loopAges } from "./background";

export type Check = { ok: boolean; detail: string; ms: number };

export type Readiness = { ready: boolean; checks: Record<string, Check>; problems: string[]; gas: GasBalance[]; warnings: string[] };

/** A gas wallet's native balance on one network (EVM: wei; Solana: lamports), and whether it runs low. */
export type GasBalance = { network: string; wallet: string; balance: string; unit: "wei" | "lamports"; low: boolean };

/**
 * Below these, a gas wallet is reported low (a warning, not unreadiness: settlements still go out until it is empty).
 * EVM: 0.005 of the native coin pays a few hundred `transferWithAuthorization`s on Base or Arbitrum; Solana: 0.01 SOL
 * pays about 2,000 fees.
 */
export const LOW_GAS = { wei: 5_000_000_000_000_000n, lamports: 10_000_000n } as const;

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

async function solanaRpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
  });
  const body = (await res.json()) as { result?: T; error?: { message?: string } };
  if (body.result === undefined) throw new NotReady(`RPC answered ${res.status}: ${body.error?.message ?? `no ${method} result`}`);
  return body.result;
}

/** The gas wallets' balances on every network of the mode (in-process facilitator only), each read with a time limit. */
export async function gasBalances(networks: PaymentNetwork[], wallets: { evm?: `0x${string}`[]; solana?: string }): Promise<(GasBalance | { network: string; wallet: string; error: string })[]> {
  const reads: Promise<GasBalance | { network: string; wallet: string; error: string }>[] = [];
  for (const n of networks) {
    const owners = n.kind === "evm" ? (wallets.evm ?? []) : wallets.solana ? [wallets.solana] : [];
    for (const wallet of owners) {
      reads.push(
        (async () => {
          if (n.kind === "evm") {
            const client = createPublicClient({ transport: http(n.rpcUrl, { timeout: CHECK_TIMEOUT_MS, retryCount: 0 }) });
            const wei = await client.getBalance({ address: wallet as `0x${string}` });
            return { network: n.network, wallet, balance: wei.toString(), unit: "wei" as const, low: wei < LOW_GAS.wei };
          }
          const { value } = await solanaRpc<{ value: number }>(n.rpcUrl, "getBalance", [wallet]);
          return { network: n.network, wallet, balance: String(value), unit: "lamports" as const, low: BigInt(value) < LOW_GAS.lamports };
        })().catch((err: unknown) => ({ network: n.network, wallet, error: err instanceof Error ? err.message : String(err) })),
      );
    }
  }
  return Promise.all(reads);
}

async function chainCheck(n: PaymentNetwork): Promise<string> {
  if (n.kind === "evm") {
    const block = await createPublicClient({ transport: http(n.rpcUrl, { timeout: CHECK_TIMEOUT_MS, retryCount: 0 }) }).getBlockNumber();
    return `block ${block}`;
  }
  return `slot ${await solanaRpc<number>(n.rpcUrl, "getSlot")}`;
}

/**
 * Whether this server can do its work (GET /api/health?ready=1): the database answers and has every migration, each
 * chain of the mode answers its RPC, and the background loops pass (on Vercel they run from cron instead).
 * `problems` names each failed check in a sentence.
 */
export async function readiness(): Promise<Readiness> {
  const c = config();
  const checks: Record<string, Check> = {};
  const gas: GasBalance[] = [];
  const warnings: string[] = [];
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
    const { networks, evmGasWallets, solanaFeePayer } = await getPayments();
    const [results, balances] = await Promise.all([
      Promise.all(networks.map((n) => timed(() => chainCheck(n)))),
      gasBalances(networks, { evm: evmGasWallets, solana: solanaFeePayer?.address }),
    ]);
    networks.forEach((n, i) => (checks[`chain ${n.network}`] = { ...results[i]!, detail: `${n.name}: ${results[i]!.detail}` }));
    for (const b of balances) {
      if ("error" in b) warnings.push(`gas wallet ${b.wallet} on ${b.network}: balance unknown (${b.error})`);
      else {
        gas.push(b);
        if (b.low) warnings.push(`gas wallet ${b.wallet} on ${b.network} runs low: ${b.balance} ${b.unit}; top it up before settlements fail`);
      }
    }
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
  return { ready: problems.length === 0, checks, problems, gas, warnings };
}
