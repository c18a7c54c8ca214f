import os from "node:os";
import { log } from "@/lib/platform/log";

type Cleanup = () => Promise<void>;

/**
 * The order a server stops in, on SIGINT/SIGTERM:
 * - `intake`: stop taking new work (new payments are answered 503) and let the settlements in flight reach a recorded
 *   outcome (settled, failed, or pending for the reconciler);
 * - `work`: stop the background workers (the round in flight finishes: a delivery; a refund's transfer is stored
 *   and sent, and no longer watched);
 * - `handback`: hand back every claim this server holds (orders, refunds, settlements, webhooks), so that the next
 *   start or another server takes them at once rather than when they lapse;
 * - `close`: stop the local chains and close the database, once nothing uses them.
 * Next's own signal handlers are off (`NEXT_MANUAL_SIG_HANDLE`, set by the npm scripts), so this is the one handler.
 */
export type ShutdownPhase = "intake" | "work" | "handback" | "close";
const PHASES: ShutdownPhase[] = ["intake", "work", "handback", "close"];
/** The whole shutdown's bound: a platform sends SIGKILL after its own grace period (Docker: 10 s, Kubernetes: 30 s). */
export const SHUTDOWN_LIMIT_MS = 25_000;

type State = { cleanups: Record<ShutdownPhase, Cleanup[]>; stopping: boolean };
const globalForShutdown = globalThis as typeof globalThis & { __storefrontShutdown?: State };

/** Registers work to do before the process ends, in its phase (by default `close`). */
export function onShutdown(cleanup: Cleanup, phase: ShutdownPhase = "close"): void {
  if (!globalForShutdown.__storefrontShutdown) {
    const state: State = { cleanups: { intake: [], work: [], handback: [], close: [] }, stopping: false };
    globalForShutdown.__storefrontShutdown = state;
    // The handler stays until the stop is done: a signal sent again meanwhile (a supervisor that signals the process
    // group and the process, a second docker stop) is ignored rather than kill the process halfway through its stop.
    const run = (signal: NodeJS.Signals) => {
      if (state.stopping) return;
      state.stopping = true;
      const deadline = new Promise<void>((r) => setTimeout(r, SHUTDOWN_LIMIT_MS).unref());
      void Promise.race([runPhases(state), deadline]).finally(() => {
        // With no handler left for the signal, sent again, it ends the process as the signal does (exit code 128+n).
        process.off("SIGINT", run);
        process.off("SIGTERM", run);
        process.kill(process.pid, signal);
        // Except as PID 1 (a container's `node server.js` without an init): the kernel drops a signal it has no handler
        // for, and the server would wait for the platform's SIGKILL. Then the same exit code, by hand.
        setTimeout(() => process.exit(128 + (os.constants.signals[signal] ?? 0)), 100);
      });
    };
    process.on("SIGINT", run);
    process.on("SIGTERM", run);
  }
  globalForShutdown.__storefrontShutdown.cleanups[phase].push(cleanup);
}

async function runPhases(state: State): Promise<void> {
  for (const phase of PHASES) {
    const results = await Promise.allSettled(state.cleanups[phase].map((c) => c()));
    for (const r of results) if (r.status === "rejected") log.error({ err: r.reason as unknown, phase }, "a shutdown step failed");
  }
}

/** Whether the process is shutting down (workers stop starting new rounds). */
export function isShuttingDown(): boolean {
  return globalForShutdown.__storefrontShutdown?.stopping ?? false;
}
