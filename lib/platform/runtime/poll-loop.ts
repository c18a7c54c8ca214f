import { log } from "@/lib/platform/log";

/**
 * A background loop of passes: `kick()` asks for a pass now, `stop()` ends it and waits for the pass in progress, whose
 * signal is aborted then (a pass that works in rounds stops after the current one).
 */
export type PollLoop = {
  kick(): void;
  stop(): Promise<void>;
};

/**
 * The process's loops by name, where kickLoop finds them. On globalThis: the server's start and the routes load this
 * module in bundles of their own.
 */
const loops = globalThis as typeof globalThis & { __storefrontLoops?: Map<string, PollLoop> };

/**
 * Makes `loop` the process's loop of `name`, the one `kickLoop(name)` reaches; one registered before under that name
 * (a `next dev` reload's) is stopped. startPollLoop registers the loops it starts; where no loop lives between
 * requests (Vercel), the server's start registers under the workers' names a loop whose kick runs a round of every
 * job after the response (lib/server/after-response.ts). Returns what takes it out of the registry again.
 */
export function registerLoop(name: string, loop: PollLoop): () => void {
  const named = (loops.__storefrontLoops ??= new Map());
  const previous = named.get(name);
  named.set(name, loop);
  if (previous && previous !== loop) void previous.stop();
  return () => {
    if (named.get(name) === loop) named.delete(name);
  };
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
 * never keeps the process alive. `pass` handles its own errors. The newest loop of a `name` is the process's
 * (registerLoop): `kickLoop(name)` reaches it, and a loop started again (a `next dev` reload) replaces the previous one.
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

  let unregister = () => {};
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
      unregister();
    },
  };
  unregister = registerLoop(name, loop);
  schedule(0);
  return loop;
}

/**
 * Asks the process's loop of that name for a pass now: a Node server's poll loop, or on Vercel the round after the
 * response that stands in for it (registerLoop). Where none is registered (a script), nothing happens.
 */
export function kickLoop(name: string): void {
  loops.__storefrontLoops?.get(name)?.kick();
}
