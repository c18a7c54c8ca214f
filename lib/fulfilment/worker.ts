import type { Db } from "@/lib/db";
import { drainDue } from "./engine";
import type { FulfilmentProvider } from "./providers/types";
import { refundDue, type Payout } from "./refund";

export type WorkerOptions = {
  /** Pause between passes. A pass starts at once when kicked. */
  intervalMs?: number;
  /** One provider for every order (tests); `providerFor(order)` otherwise. */
  provider?: FulfilmentProvider;
  /** How refunds are paid. Without one, failed orders stay refund-due for the operator. */
  payout?: Payout;
  onError?: (err: unknown) => void;
};

export type Worker = {
  /** Runs a pass now (after the current one, if one is running). The pay route calls it once an invoice is paid. */
  kick(): void;
  /** Stops the loop and waits for the pass in progress. */
  stop(): Promise<void>;
};

const globalForWorker = globalThis as typeof globalThis & { __storefrontFulfilmentWorker?: Worker };

/**
 * The in-process fulfilment loop: each pass drains due orders, then refunds failed ones. Passes never overlap (a
 * setTimeout chain, not an interval), errors are logged and the next pass runs anyway, and the timer is unref'd so it
 * never keeps the process alive. The newest worker is the process's: `kickWorker()` reaches it, and a worker started
 * again (a `next dev` reload) replaces the previous one.
 */
export function startWorker(getDb: () => Promise<Db>, opts: WorkerOptions = {}): Worker {
  const intervalMs = opts.intervalMs ?? 500;
  const onError = opts.onError ?? ((err: unknown) => console.error("[fulfilment]", err));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let kicked = false;
  let stopped = false;

  const pass = async () => {
    let db: Db;
    try {
      db = await getDb();
    } catch (err) {
      onError(err);
      return;
    }
    await drainDue(db, { provider: opts.provider }).catch(onError);
    // Refunds run even when some delivery could not be recorded.
    if (opts.payout) await refundDue(db, opts.payout).catch(onError);
  };

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(run, ms);
    timer.unref();
  };

  function run() {
    timer = undefined;
    running = pass().finally(() => {
      running = undefined;
      const again = kicked;
      kicked = false;
      schedule(again ? 0 : intervalMs);
    });
  }

  const previous = globalForWorker.__storefrontFulfilmentWorker;
  const worker: Worker = {
    kick() {
      if (stopped) return;
      if (running) {
        // The pass in progress may have claimed before the kick's orders were due.
        kicked = true;
        return;
      }
      clearTimeout(timer);
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      if (globalForWorker.__storefrontFulfilmentWorker === worker) globalForWorker.__storefrontFulfilmentWorker = undefined;
    },
  };
  globalForWorker.__storefrontFulfilmentWorker = worker;
  void previous?.stop();
  schedule(0);
  return worker;
}

/** Asks the process's worker, if one runs, for a pass now: fulfilment starts without waiting for the next tick. */
export function kickWorker(): void {
  globalForWorker.__storefrontFulfilmentWorker?.kick();
}
