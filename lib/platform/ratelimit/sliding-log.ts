import type { Policy } from "./policies";

/**
 * The rolling window of one policy for one subject: the times of its accepted requests in the last `durationSec`,
 * oldest first, as `at` (ms since the epoch) with the number of requests recorded at that time in `n`. A request at
 * `now` is accepted while fewer than `points` requests are logged after `now - duration`: so no interval of the
 * policy's length ever holds more accepted requests than its limit (a sliding log, exact; not a fixed window that
 * opens at a first request and lets up to twice the limit through around its end).
 *
 * The memory store keeps these arrays as they are; PostgreSQL (lib/platform/ratelimit/postgres-store.ts) and Redis
 * (lib/platform/ratelimit/redis-store.ts) run the same steps in one statement or script, tested to agree by one randomized test.
 */
export type SlidingLog = { at: number[]; n: number[] };

/** One request's entry in one policy's log. */
export type Count = { policy: Policy; key: string };

/** Where a log stands after a decision. */
export type LogState = {
  /** Requests in the window, this one included when it was accepted. */
  used: number;
  /**
   * When the oldest of them leaves the window (ms since the epoch), giving a request back: with the log full, the
   * moment one more request becomes possible. Undefined for an empty log.
   */
  freesAt: number | undefined;
};

/** The answer of a store for one request: accepted by every policy or by none. */
export type TakeResult = { accepted: boolean; states: LogState[] };

/**
 * Limits up to this many requests per window are logged to the millisecond. A larger one (only the benchmarks'
 * raised limits) logs at `duration / EXACT_POINTS` steps, each time rounded up: a request counts a little longer than
 * it should, never shorter, so the limit still holds, and a log never has more than about this many entries.
 */
export const EXACT_POINTS = 1000;

/** The step (ms) to which a policy's request times are rounded up: 1 for every limit of the shop's own tables. */
export function resolutionMs(policy: Policy): number {
  return policy.points <= EXACT_POINTS ? 1 : Math.ceil((policy.durationSec * 1000) / EXACT_POINTS);
}

/** The time logged for a request at `now`. */
export function loggedTime(policy: Policy, now: number): number {
  const step = resolutionMs(policy);
  return Math.ceil(now / step) * step;
}

/** Drops the entries that left the window: an entry at `a` counts while `now < a + duration`. */
export function prune(log: SlidingLog, policy: Policy, now: number): void {
  const since = now - policy.durationSec * 1000;
  let first = 0;
  while (first < log.at.length && log.at[first]! <= since) first++;
  if (first > 0) {
    log.at.splice(0, first);
    log.n.splice(0, first);
  }
}

export function used(log: SlidingLog): number {
  let sum = 0;
  for (const n of log.n) sum += n;
  return sum;
}

/**
 * Logs one request at `now`. A time not after the newest entry (another server's clock a little ahead) is added to
 * that entry: the request then counts until that entry leaves, a little longer, never shorter.
 */
export function append(log: SlidingLog, policy: Policy, now: number): void {
  const at = loggedTime(policy, now);
  const last = log.at.length - 1;
  if (last >= 0 && log.at[last]! >= at) log.n[last]! += 1;
  else {
    log.at.push(at);
    log.n.push(1);
  }
}

/** Takes the newest request out again (a dashboard sign-in that succeeded gives its point back). */
export function removeNewest(log: SlidingLog): void {
  const last = log.n.length - 1;
  if (last < 0) return;
  if (log.n[last]! > 1) log.n[last]! -= 1;
  else {
    log.at.pop();
    log.n.pop();
  }
}

export function stateOf(log: SlidingLog, policy: Policy): LogState {
  const oldest = log.at[0];
  return { used: used(log), freesAt: oldest === undefined ? undefined : oldest + policy.durationSec * 1000 };
}

/**
 * One request against several logs at once (a product listing: the endpoint's and the product quota): accepted only
 * if every log has room, and then logged in every one; a refused request is logged in none.
 */
export function takeAll(logs: readonly SlidingLog[], counts: readonly Count[], now: number): TakeResult {
  counts.forEach(({ policy }, i) => prune(logs[i]!, policy, now));
  const accepted = counts.every(({ policy }, i) => used(logs[i]!) < policy.points);
  if (accepted) counts.forEach(({ policy }, i) => append(logs[i]!, policy, now));
  return { accepted, states: counts.map(({ policy }, i) => stateOf(logs[i]!, policy)) };
}
