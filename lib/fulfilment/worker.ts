import type { Db } from "@/lib/platform/db";
import { kickLoop, startPollLoop, type PassOutcome, type PollLoop } from "@/lib/platform/runtime/poll-loop";
import { drainDue } from "./engine";
import type { FulfilmentProvider } from "./providers/types";
import { refundDue, type Payout } from "./refund";
import { log } from "@/lib/platform/log";

export type WorkerOptions = {
  /** Pause between passes. A pass starts at once when kicked. */
  intervalMs?: number;
  /** The longest pause after passes that found nothing to do (lib/platform/runtime/poll-loop); `intervalMs` by default. */
  idleMaxMs?: number;
  /** One provider for every order (tests); `providerFor(order)` otherwise. */
  provider?: FulfilmentProvider;
  /** How refunds are paid. Without one, failed orders stay refund-due for the operator. */
  payout?: Payout;
  onError?: (err: unknown) => void;
  /** Called after every pass, whatever its outcome (the server's readiness tells a live loop by it). */
  onPass?: () => void;
};

export type Worker = PollLoop;

const LOOP = "fulfilment";

/**
 * The in-process fulfilment loop (lib/platform/runtime/poll-loop): each pass drains due orders, then refunds failed ones;
 * errors are logged and the next pass runs anyway. `kickWorker()` reaches the process's worker: the pay route calls
 * it once an invoice is paid.
 */
export function startWorker(getDb: () => Promise<Db>, opts: WorkerOptions = {}): Worker {
  const onError = opts.onError ?? ((err: unknown) => log.error({ err, job: "fulfilment" }, "fulfilment pass failed"));
  // Idle: no order was due, none was left to roll up, no refund was made; a failed step is not idle.
  const pass = async (): Promise<PassOutcome> => {
    let db: Db;
    try {
      db = await getDb();
    } catch (err) {
      onError(err);
      opts.onPass?.();
      return;
    }
    const drained = await drainDue(db, { provider: opts.provider }).catch(onError);
    // Refunds run even when some delivery could not be recorded.
    const refunds = opts.payout ? await refundDue(db, opts.payout).catch(onError) : [];
    opts.onPass?.();
    return drained && drained.claimed === 0 && drained.recoveredInvoices === 0 && refunds?.length === 0 ? "idle" : undefined;
  };
  return startPollLoop(LOOP, pass, opts.intervalMs ?? 500, { idleMaxMs: opts.idleMaxMs });
}

/** Asks the process's worker, if one runs, for a pass now: fulfilment starts without waiting for the next tick. */
export function kickWorker(): void {
  kickLoop(LOOP);
}
