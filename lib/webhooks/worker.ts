import type { Db } from "@/lib/platform/db";
import { kickLoop, startPollLoop, type PassOutcome, type PollLoop } from "@/lib/platform/runtime/poll-loop";
import { drainWebhooks, type DrainWebhooksOptions } from "./drain";
import { log } from "@/lib/platform/log";

export type WebhookWorkerOptions = Omit<DrainWebhooksOptions, "now"> & {
  /** Pause between passes. A pass starts at once when kicked. */
  intervalMs?: number;
  /** The longest pause after passes that found nothing due (lib/platform/runtime/poll-loop); `intervalMs` by default. */
  idleMaxMs?: number;
  onError?: (err: unknown) => void;
  /** Called after every pass, whatever its outcome. */
  onPass?: () => void;
};

export type WebhookWorker = PollLoop;

const LOOP = "webhooks";

/**
 * The in-process webhook loop (lib/platform/runtime/poll-loop): each pass drains due messages; errors are logged and the next
 * pass runs anyway. Retries come due between passes: the pause (at most idleMaxMs) bounds how late.
 */
export function startWebhookWorker(getDb: () => Promise<Db>, opts: WebhookWorkerOptions = {}): WebhookWorker {
  const {
    intervalMs = 1_000,
    idleMaxMs,
    onError = (err: unknown) => log.error({ err, job: "webhooks" }, "webhook pass failed"),
    onPass,
    ...drainOptions
  } = opts;
  const pass = async (signal: AbortSignal): Promise<PassOutcome> => {
    let outcome: PassOutcome = undefined;
    try {
      // Idle: no message was due.
      if ((await drainWebhooks(await getDb(), { ...drainOptions, signal })).claimed === 0) outcome = "idle";
    } catch (err) {
      onError(err);
    }
    onPass?.();
    return outcome;
  };
  return startPollLoop(LOOP, pass, intervalMs, { idleMaxMs });
}

/** Asks the process's webhook worker, if one runs, for a pass now: call it after the transaction that enqueued commits. */
export function kickWebhookWorker(): void {
  kickLoop(LOOP);
}
