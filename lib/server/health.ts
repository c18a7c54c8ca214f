import { address, createSolanaRpc } from "@solana/kit";
import { sql } from "drizzle-orm";
import { createPublicClient, http } from "viem";
import { heldCoinPrices, heldCoinPriceWarning, heldFxRates, heldFxWarning } from "@/lib/catalog";
import { config } from "@/lib/platform/config";
import { errorText, redactUrls } from "@/lib/platform/errors";
import { getDb } from "@/lib/platform/db";
import { migrationStatus, queryRows } from "@/lib/platform/db/client";
import { addressWarnings, getPayments, undecidedSettlements, viemChain } from "@/lib/payments";
import { addressRefundWarnings } from "@/lib/fulfilment";
import type { PaymentNetwork } from "@/lib/platform/networks";
import { upstreamHealth, type UpstreamStatus } from "@/lib/supply";
import { LOOP_STALE_MS, LOOPS, loopAges } from "./background";

export type Check = { ok: boolean; detail: string; ms: number };

export type Readiness = {
  ready: boolean;
  checks: Record<string, Check>;
  problems: string[];
  gas: GasBalance[];
  warnings: string[];
  /** The upstream supplier (UPSTREAM_API_URL), when one is configured. */
  upstream?: UpstreamStatus;
};

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
    return { ok: false, detail: errorText(err), ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

class NotReady extends Error {}

type Balance = GasBalance | { network: string; wallet: string; error: string };

/** One network's RPC as readiness reads it (a client made once per check): its head, and a wallet's native balance. */
function chainReader(n: PaymentNetwork): { head(): Promise<string>; balance(wallet: string): Promise<bigint> } {
  const signal = () => AbortSignal.timeout(CHECK_TIMEOUT_MS);
  if (n.kind === "evm") {
    const client = createPublicClient({ chain: viemChain(n), transport: http(n.rpcUrl, { timeout: CHECK_TIMEOUT_MS, retryCount: 0 }) });
    return {
      head: async () => `block ${await client.getBlockNumber()}`,
      balance: (wallet) => client.getBalance({ address: wallet as `0x${string}` }),
    };
  }
  const rpc = createSolanaRpc(n.rpcUrl);
  return {
    head: async () => `slot ${await rpc.getSlot().send({ abortSignal: signal() })}`,
    balance: async (wallet) => (await rpc.getBalance(address(wallet)).send({ abortSignal: signal() })).value,
  };
}

/** The gas wallets' balances on every network of the mode (in-process facilitator only), each read with a time limit. */
export async function gasBalances(networks: PaymentNetwork[], wallets: { evm?: `0x${string}`[]; solana?: string }): Promise<Balance[]> {
  return Promise.all(networks.flatMap((n) => networkBalances(n, chainReader(n), wallets)));
}

function networkBalances(n: PaymentNetwork, reader: ReturnType<typeof chainReader>, wallets: { evm?: `0x${string}`[]; solana?: string }): Promise<Balance>[] {
  const owners = n.kind === "evm" ? (wallets.evm ?? []) : wallets.solana ? [wallets.solana] : [];
  const unit = n.kind === "evm" ? ("wei" as const) : ("lamports" as const);
  return owners.map((wallet) =>
    reader.balance(wallet).then(
      (amount) => ({ network: n.network, wallet, balance: amount.toString(), unit, low: amount < LOW_GAS[unit] }),
      (err: unknown) => ({ network: n.network, wallet, error: errorText(err) }),
    ),
  );
}

/** How long a readiness answer is reused: anyone may ask, and each asking reads every chain's RPC and the database. */
export const READINESS_TTL_MS = 5_000;

let latest: { at: number; answer: Promise<Readiness> } | undefined;

/**
 * Readiness as of at most READINESS_TTL_MS ago: one pass at a time, shared by every caller meanwhile, so that a flood
 * of health checks makes one round of RPC reads every few seconds, not one per call.
 */
export function recentReadiness(now = Date.now()): Promise<Readiness> {
  if (latest && now - latest.at < READINESS_TTL_MS) return latest.answer;
  const answer = readiness();
  const pass = { at: now, answer };
  latest = pass;
  // A pass that threw is not kept: the next caller tries again.
  answer.catch(() => {
    if (latest === pass) latest = undefined;
  });
  return answer;
}

/**
 * What anyone may read of readiness: each check by name, passed or not, and the names of those that failed. No detail:
 * errors, balances, wallets and the upstream are the operator's.
 */
export function publicReadiness(r: Readiness): { checks: Record<string, { ok: boolean }>; problems: string[] } {
  const checks = Object.fromEntries(Object.entries(r.checks).map(([name, c]) => [name, { ok: c.ok }]));
  const problems = Object.entries(r.checks)
    .filter(([, c]) => !c.ok)
    .map(([name]) => name);
  return { checks, problems };
}

/**
 * Whether this server can do its work (GET /api/health?ready=1): the database answers and has every migration, each
 * chain of the mode answers its RPC, and the background loops pass (on Vercel they run from cron instead). With an
 * upstream supplier, its balance and the orders held or under way are shown too (warnings, not unreadiness).
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
  const payments = await getPayments().catch((err: unknown) => err as Error);
  if (payments instanceof Error) checks.payments = { ok: false, detail: errorText(payments), ms: 0 };
  else {
    const { networks, evmGasWallets, solanaFeePayer } = payments;
    const readers = networks.map(chainReader);
    const [heads, balances] = await Promise.all([
      Promise.all(readers.map((r) => timed(r.head))),
      Promise.all(networks.flatMap((n, i) => networkBalances(n, readers[i]!, { evm: evmGasWallets, solana: solanaFeePayer?.address }))),
    ]);
    networks.forEach((n, i) => (checks[`chain ${n.network}`] = { ...heads[i]!, detail: `${n.name}: ${heads[i]!.detail}` }));
    for (const b of balances) {
      if ("error" in b) warnings.push(`gas wallet ${b.wallet} on ${b.network}: balance unknown (${b.error})`);
      else {
        gas.push(b);
        if (b.low) warnings.push(`gas wallet ${b.wallet} on ${b.network} runs low: ${b.balance} ${b.unit}; top it up before settlements fail`);
      }
    }
    // The networks paid by address only (Ethereum): their node and the gas wallet that flushes there are warnings, not
    // unreadiness (x402 and the other methods go on without them).
    const addressOnly = payments.addressNetworks.filter((n) => !networks.some((x) => x.network === n.network) && payments.gasSender(n));
    const onlyReaders = addressOnly.map(chainReader);
    const [onlyHeads, onlyBalances] = await Promise.all([
      Promise.all(onlyReaders.map((r) => timed(r.head))),
      Promise.all(addressOnly.flatMap((n, i) => networkBalances(n, onlyReaders[i]!, { evm: evmGasWallets }))),
    ]);
    addressOnly.forEach((n, i) => {
      if (!onlyHeads[i]!.ok) warnings.push(`payments by address on ${n.name}: its node does not answer (${onlyHeads[i]!.detail})`);
    });
    for (const b of onlyBalances) {
      if ("error" in b) warnings.push(`gas wallet ${b.wallet} on ${b.network}: balance unknown (${b.error})`);
      else {
        gas.push(b);
        if (b.low)
          warnings.push(`gas wallet ${b.wallet} on ${b.network} runs low: ${b.balance} ${b.unit}; top it up before the flushes of payments by address fail`);
      }
    }
  }
  if (c.vercel) checks.background = { ok: true, detail: "runs from Vercel Cron (GET /api/cron/tick) and after payments", ms: 0 };
  else {
    const ages = loopAges();
    for (const name of LOOPS) {
      const age = ages[name];
      const ok = age !== undefined && age <= LOOP_STALE_MS;
      const detail =
        age === undefined ? "has not finished a pass yet" : ok ? `last pass ${Math.round(age / 1000)} s ago` : `no pass for ${Math.round(age / 1000)} s`;
      checks[`loop ${name}`] = { ok, detail, ms: 0 };
    }
  }
  // The upstream supplier: its balance and held orders are the operator's to act on (warnings: the shop still serves).
  const upstream = await getDb()
    .then(upstreamHealth)
    .catch((err: unknown) => {
      warnings.push(`upstream supplier: status unknown (${errorText(err)})`);
      return undefined;
    });
  if (upstream) {
    if (upstream.balance_error) warnings.push(`upstream supplier ${upstream.origin}: balance unknown (${upstream.balance_error})`);
    if (upstream.held_orders > 0) {
      warnings.push(
        `upstream supplier: ${upstream.held_orders} order(s) held, its balance is too low (${upstream.balance_cents ?? "?"} cents): top it up before they are refunded`,
      );
    }
    if (upstream.sync.last_error) warnings.push(`upstream catalog sync: ${upstream.sync.last_error}`);
  }
  // Payments the chain has not decided long after they could have landed: the operator's to look at.
  const undecided = await getDb()
    .then((db) => undecidedSettlements(db))
    .catch(() => undefined);
  if (undecided?.oldest) {
    const o = undecided.oldest;
    warnings.push(
      `${undecided.count} payment(s) undecided long after their authorization expired; the oldest: ${o.id} (${o.purpose} ${o.reference}) on ${o.network}` +
        `${o.transaction ? `, transaction ${o.transaction}` : ""}${o.lastError ? `: ${redactUrls(o.lastError)}` : ""}. Its RPC node may lag or refuse log queries: check the transaction on an explorer`,
    );
  }
  // Payment addresses whose flush is stuck, or whose network's watcher fails; their refunds with nowhere to go.
  warnings.push(
    ...(await getDb()
      .then(async (db) => [...(await addressWarnings(db)), ...(await addressRefundWarnings(db))])
      .catch(() => [])),
  );
  // Exchange rates held for moving a currency too far: the operator's to confirm (prices keep the applied ones).
  const heldRates = await getDb()
    .then(heldFxRates)
    .catch(() => []);
  for (const h of heldRates) warnings.push(heldFxWarning(h));
  const heldPrices = await getDb()
    .then(heldCoinPrices)
    .catch(() => []);
  for (const h of heldPrices) warnings.push(heldCoinPriceWarning(h));
  const problems = Object.entries(checks)
    .filter(([, check]) => !check.ok)
    .map(([name, check]) => `${name}: ${check.detail}`);
  return { ready: problems.length === 0, checks, problems, gas, warnings, ...(upstream ? { upstream } : {}) };
}
