import type { Db } from "@/lib/platform/db";
import { kickLoop, startWorkerLoop, type PollLoop, type WorkerLoopOptions } from "@/lib/platform/runtime/poll-loop";
import { drainDue } from "./engine";
import type { UpstreamProvider } from "./providers/provider-for";
import type { FulfilmentProvider } from "./providers/types";
import { refundDue, type Payout } from "./refund";
import { payAddressRefunds } from "./address-refunds";

export type WorkerOptions = WorkerLoopOptions & {
  /** One provider for every order (tests); `providerFor(order)` otherwise. */
  provider?: FulfilmentProvider;
  /** The upstream supplier's provider, for its orders (lib/supply's `upstreamProvider`, which lib/server passes). */
  upstream?: UpstreamProvider;
  /** How refunds are paid. Without one, failed orders stay refund-due for the operator. */
  payout?: Payout;
};

export type Worker = PollLoop;

const LOOP = "fulfilment";

/**
 * The in-process fulfilment loop (startWorkerLoop): each pass drains due orders, then refunds failed ones; errors are
 * logged and the next pass runs anyway. `kickWorker()` reaches the process's worker: the pay route calls it once an
 * invoice is paid.
 */
export function startWorker(getDb: () => Promise<Db>, opts: WorkerOptions = {}): Worker {
  return startWorkerLoop(
    LOOP,
    getDb,
    async (db, { onError }) => {
      const drained = await drainDue(db, { provider: opts.provider, upstream: opts.upstream }).catch(onError);
      // Refunds run even when some delivery could not be recorded.
      const refunds = opts.payout ? await refundDue(db, opts.payout).catch(onError) : [];
      // And what shoppers' payment addresses received beyond their invoices.
      const returned = opts.payout ? await payAddressRefunds(db, opts.payout).catch(onError) : [];
      // Idle: no order was due, none was left to roll up, no refund was made; a failed step is not idle.
      return Boolean(drained && drained.claimed === 0 && drained.recoveredInvoices === 0 && refunds?.length === 0 && returned?.length === 0);
    },
    500,
    opts,
  );
}

/**
 * Asks the process's worker, if one runs, for a pass now: fulfilment starts without waiting for the next tick. On
 * Vercel, where no worker runs, a round of every job after the response (lib/server/after-response.ts).
 */
export function kickWorker(): void {
  kickLoop(LOOP);
}
