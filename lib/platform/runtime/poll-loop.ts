import { after } from "next/server";
import { config } from "@/lib/platform/config";
import { log, withoutLogContext } from "@/lib/platform/log";
/**
 * A background loop of passes: `kick()` asks for a pass now, `stop()` ends it and waits for the pass in progress, whose
 * signal is aborted then (a pass that works in rounds stops after the current one).
 */
export type PollLoop = {
  kick(): void;
  stop(): Promise<void>;
};

const loops = globalThis as typeof globalThis & { __storefrontLoops?: Map<string, PollLoop> };
const registry = globalThis as typeof globalThis & { __storefrontRound?: (opts: { budgetMs: number }) => Promise<unknown> };

/**
 * The one bounded round of every background job that a kick runs after the response where no loop runs (Vercel):
 * the server's layer provides it (lib/wiring.ts), as this module sits below the jobs it would run.
 */
export function setBackgroundRound(run: (opts: { budgetMs: number }) => Promise<unknown>): void {
  registry.__storefrontRound = run;
}

/** What a pass found: `"idle"` when there was nothing to do. */
export type PassOutcome = void | "idle";

/** What every worker loop takes: its pace, and what to do with a failed step and after each pass. */
export type WorkerLoopOptions = {
  /** Pause between passes. A pass starts at once when kicked. */
  intervalMs?: number;
  /** The longest pause after passes that found nothing to do (see startPollLoop); `intervalMs` by default. */
  idleMaxMs?: number;
  /** A failed step; logged as "<name> pass failed" by default. */
  onError?: (err: unknown) => void;
  /** Called after every pass, whatever its outcome (the server's readiness tells a live loop by it). */
  onPass?: () => void;
};

/**
 * A worker: a poll loop (startPollLoop) whose pass opens the database and does `work`, which answers whether it found
 * nothing to do. A failure (the database unreachable, a step that threw) goes to `onError` and the next pass runs
 * anyway; `work` may give `onError` a failed step of its own and go on with the next. `kickLoop(name)` reaches it.
 */
export function startWorkerLoop<D>(
  name: string,
  getDb: () => Promise<D>,
  work: (db: D, pass: { signal: AbortSignal; onError: (err: unknown) => void }) => Promise<boolean>,
  defaultIntervalMs: number,
  opts: WorkerLoopOptions = {},
): PollLoop {
  const onError = opts.onError ?? ((err: unknown) => log.error({ err, job: name }, `${name} pass failed`));
  const pass = async (signal: AbortSignal): Promise<PassOutcome> => {
    let idle = false;
    try {
      idle = await work(await getDb(), { signal, onError });
    } catch (err) {
      onError(err);
    }
    opts.onPass?.();
    return idle ? "idle" : undefined;
  };
  return startPollLoop(name, pass, opts.intervalMs ?? defaultIntervalMs, { idleMaxMs: opts.idleMaxMs });
}

/**
 * Runs `pass` again and again: passes never overlap (a setTimeout chain, not an interval), a pass kicked while one
 * runs follows it at once (that one may have looked before the kick's work existed), and the timer is unref'd so it
 * never keeps the process alive. `pass` handles its own errors. The newest loop of a `name` is the process's:
 * `kickLoop(name)` reaches it, and a loop started again (a `next dev` reload) replaces the previous one.
 *
 * With `idleMaxMs`, a pass that found nothing to do doubles the pause before the next, up to `idleMaxMs`, until a pass
 * finds work or a kick comes: an idle server asks its database less often, and work that kicks (a payment, a new
 * message) still starts at once.
 */
export function startPollLoop(
  name: string,
  pass: (signal: AbortSignal) => Promise<PassOutcome>,
  intervalMs: number,
  opts: { idleMaxMs?: number } = {},
): PollLoop {
  const named = (loops.__storefrontLoops ??= new Map());
  const idleMaxMs = Math.max(intervalMs, opts.idleMaxMs ?? intervalMs);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let pause = intervalMs;
  let kicked = false;
  let stopped = false;
  const stopping = new AbortController();

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(run, ms);
    timer.unref();
  };

  function run() {
    timer = undefined;
    running = pass(stopping.signal)
      .then((outcome) => {
        pause = outcome === "idle" ? Math.min(pause * 2, idleMaxMs) : intervalMs;
      })
      .finally(() => {
        running = undefined;
        const again = kicked;
        kicked = false;
        schedule(again ? 0 : pause);
      });
  }

  const previous = named.get(name);
  const loop: PollLoop = {
    kick() {
      if (stopped) return;
      pause = intervalMs;
      if (running) {
        kicked = true;
        return;
      }
      clearTimeout(timer);
      schedule(0);
    },
    async stop() {
      stopped = true;
      stopping.abort();
      clearTimeout(timer);
      await running;
      if (named.get(name) === loop) named.delete(name);
    },
  };
  named.set(name, loop);
  void previous?.stop();
  schedule(0);
  return loop;
}

/**
 * Asks the process's loop of that name for a pass now. Where no loop runs (Vercel: functions keep no background work)
 * the request that kicked starts one bounded round of every job once its answer is sent (`after()`), so that codes
 * and webhooks do not wait for the next cron.
 */
export function kickLoop(name: string): void {
  const loop = loops.__storefrontLoops?.get(name);
  if (loop) loop.kick();
  else if (config().vercel) roundAfterResponse();
}

let round: { again: boolean } | undefined;

function roundAfterResponse(): void {
  // One round per function instance at a time; a kick while it runs asks for one more after it (the payment it
  // announces may have come after the round looked).
  if (round) {
    round.again = true;
    return;
  }
  const current = (round = { again: false });
  try {
    after(async () => {
      try {
        const runRound = registry.__storefrontRound;
        if (!runRound) throw new Error("No background round is wired: load lib/wiring.ts at start-up");
        do {
          current.again = false;
          // The round's lines are about the orders and deliveries it takes, not about the request that kicked it.
          await withoutLogContext(() => runRound({ budgetMs: 25_000 }));
        } while (current.again);
      } catch (err) {
        log.error({ err }, "the round after the response failed");
      } finally {
        round = undefined;
      }
    });
  } catch (err) {
    // Outside a request (a script): nothing to attach the round to; cron runs it.
    round = undefined;
    log.warn({ err }, "cannot run a round after the response here: cron runs it");
  }
}
