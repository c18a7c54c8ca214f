/** After this many attempts a transient failure becomes permanent (RETRIES_EXHAUSTED): 2+4+…+128 s ≈ 4 minutes of trying. */
export const MAX_ATTEMPTS = 8;
const MAX_DELAY_MS = 10 * 60_000;

/** How long to wait before the next attempt, after `attempts` attempts: 2, 4, 8, … seconds, at most 10 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(2 ** Math.max(1, attempts) * 1000, MAX_DELAY_MS);
}
