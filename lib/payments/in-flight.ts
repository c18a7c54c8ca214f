const globalForInFlight = globalThis as typeof globalThis & { __storefrontSettlements?: { running: Set<Promise<unknown>>; closed: boolean } };
const state = (globalForInFlight.__storefrontSettlements ??= { running: new Set(), closed: false });

/**
 * The settlements this process is running, so that a shutdown can stop taking new ones and wait for the ones in
 * flight to reach a recorded outcome (settled, failed, or pending for the reconciler) before the database closes.
 */
export function acceptingSettlements(): boolean {
  return !state.closed;
}

/** Runs one settlement, counted as in flight until it ends. */
export function trackSettlement<T>(work: Promise<T>): Promise<T> {
  state.running.add(work);
  void work.then(
    () => state.running.delete(work),
    () => state.running.delete(work),
  );
  return work;
}

/** Stops taking new settlements (they are answered 503) and resolves when those in flight have ended, or after `timeoutMs`. */
export async function drainSettlements(timeoutMs: number): Promise<{ unfinished: number }> {
  state.closed = true;
  const deadline = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), timeoutMs).unref());
  await Promise.race([Promise.allSettled([...state.running]), deadline]);
  return { unfinished: state.running.size };
}
