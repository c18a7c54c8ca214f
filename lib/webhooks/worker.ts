import type { Db } from "@/lib/db";
import { drainWebhooks, type DrainWebhooksOptions } from "./drain";

export type WebhookWorkerOptions = Omit<DrainWebhooksOptions, "now"> & {
  /** Pause between passes. A pass starts at once when kicked. */
  intervalMs?: number;
  onError?: (err: unknown) => void;
};

export type WebhookWorker = {
  /** Runs a pass now (after the current one, if one is running). */
  kick(): void;
  /** Stops the loop and waits for the pass in progress (at most one attempt's timeout). */
  stop(): Promise<void>;
};

const globalForWorker = globalThis as typeof globalThis & { __storefrontWebhookWorker?: WebhookWorker };

/**
 * The in-process webhook loop, built like the fulfilment worker: each pass drains due messages; passes never overlap
 * (a setTimeout chain), errors are logged and the next pass runs anyway, and the timer is unref'd so it never keeps
 * the process alive. The newest worker is the process's: `kickWebhookWorker()` reaches it, and a worker started again
 * (a `next dev` reload) replaces the previous one. Retries come due between passes: the interval bounds how late.
 */
export function startWebhookWorker(getDb: () => Promise<Db>, opts: WebhookWorkerOptions = {}): WebhookWorker {
  const { intervalMs = 1_000, onError = (err: unknown) => console.error("[webhooks]", err), ...drainOptions } = opts;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let kicked = false;
  let stopped = false;

  const pass = async () => {
    try {
      await drainWebhooks(await getDb(), drainOptions);
    } catch (err) {
      onError(err);
    }
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

  const previous = globalForWorker.__storefrontWebhookWorker;
  const worker: WebhookWorker = {
    kick() {
      if (stopped) return;
      if (running) {
        // The pass in progress may have claimed before the kick's messages were written.
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
      if (globalForWorker.__storefrontWebhookWorker === worker) globalForWorker.__storefrontWebhookWorker = undefined;
    },
  };
  globalForWorker.__storefrontWebhookWorker = worker;
  void previous?.stop();
  schedule(0);
  return worker;
}

/** Asks the process's webhook worker, if one runs, for a pass now: call it after the transaction that enqueued commits. */
export function kickWebhookWorker(): void {
  globalForWorker.__storefrontWebhookWorker?.kick();
}
