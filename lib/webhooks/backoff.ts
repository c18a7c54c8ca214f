/** Each retry waits this many times longer than the one before. */
export const RETRY_FACTOR = 3;
/** No single wait is longer than this: a receiver that comes back is served within hours, not a day. */
export const MAX_RETRY_DELAY_MS = 8 * 3_600_000;
/** Retries go on until their waits add up to this: then the message is given up (`failed`). */
export const RETRY_SPAN_MS = 24 * 3_600_000;
/** Each wait is drawn from ±20 % of its nominal length, so that messages that failed together do not retry together. */
export const JITTER = 0.2;

/**
 * The nominal waits before each retry: base, 3 × base, 9 × base, … each at most 8 h, as many as it takes to add up to a
 * day. With the default base of 10 s: 10 s, 30 s, 1.5 min, 4.5 min, 13.5 min, 40.5 min, 2 h, 6 h, 8 h, 8 h (about 25 h,
 * 11 attempts in all).
 */
export function retrySchedule(baseSeconds: number): number[] {
  if (!Number.isFinite(baseSeconds) || baseSeconds <= 0) throw new RangeError(`retry base must be a positive number of seconds, got ${baseSeconds}`);
  const delays: number[] = [];
  let total = 0;
  for (let d = baseSeconds * 1000; total < RETRY_SPAN_MS; d *= RETRY_FACTOR) {
    const delay = Math.min(d, MAX_RETRY_DELAY_MS);
    delays.push(delay);
    total += delay;
  }
  return delays;
}

/** How many attempts a message gets from the worker: the first, then one per retry of the schedule. */
export function maxAttempts(baseSeconds: number): number {
  return retrySchedule(baseSeconds).length + 1;
}

/**
 * How long to wait after a message's `attempts`-th attempt failed, or null when that was its last. The receiver's
 * `Retry-After` (429, 503) is honoured when longer than the schedule's wait, up to the longest wait.
 */
export function nextRetryDelayMs(attempts: number, baseSeconds: number, opts: { random?: () => number; retryAfterMs?: number | null } = {}): number | null {
  const nominal = retrySchedule(baseSeconds)[Math.max(1, attempts) - 1];
  if (nominal === undefined) return null;
  const jittered = Math.round(nominal * (1 - JITTER + 2 * JITTER * (opts.random ?? Math.random)()));
  return Math.min(Math.max(jittered, opts.retryAfterMs ?? 0), MAX_RETRY_DELAY_MS);
}
