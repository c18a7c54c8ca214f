import type { Db } from "@/lib/platform/db";
import { kickLoop, startWorkerLoop, type PollLoop, type WorkerLoopOptions } from "@/lib/platform/runtime/poll-loop";
import { drainWebhooks, type DrainWebhooksOptions } from "./drain";

export type WebhookWorkerOptions = Omit<DrainWebhooksOptions, "now"> & WorkerLoopOptions;

export type WebhookWorker = PollLoop;

const LOOP = "webhooks";

/**
 * The in-process webhook loop (startWorkerLoop): each pass drains due messages; errors are logged and the next pass
 * runs anyway. Retries come due between passes: the pause (at most idleMaxMs) bounds how late.
 */
export function startWebhookWorker(getDb: () => Promise<Db>, opts: WebhookWorkerOptions = {}): WebhookWorker {
  const { intervalMs, idleMaxMs, onError, onPass, ...drainOptions } = opts;
  // Idle: no message was due.
  return startWorkerLoop(LOOP, getDb, async (db, { signal }) => (await drainWebhooks(db, { ...drainOptions, signal })).claimed === 0, 1_000, {
    intervalMs,
    idleMaxMs,
    onError,
    onPass,
  });
}

/**
 * Asks the process's webhook worker, if one runs, for a pass now: call it after the transaction that enqueued commits.
 * On Vercel, where no worker runs, a round of every job after the response (lib/server/after-response.ts).
 */
export function kickWebhookWorker(): void {
  kickLoop(LOOP);
}
