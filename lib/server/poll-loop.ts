/**
 * A background loop of passes: `kick()` asks for a pass now, `stop()` ends it and waits for the pass in progress, whose
 * signal is aborted then (a pass that works in rounds stops after the current one).
 */
export type PollLoop = {
  kick(): void;
  stop(): Promise<void>;
};

const loops = globalThis as typeof globalThis & { __storefrontLoops?: Map<string, PollLoop> };

/**
 * Runs `pass` again and again: passes never overlap (a setTimeout chain, not an interval), a pass kicked while one
 * runs follows it at once (that one may have looked before the kick's work existed), and the timer is unref'd so it
 * never keeps the process alive. `pass` handles its own errors. The newest loop of a `name` is the process's:
 * `kickLoop(name)` reaches it, and a loop started again (a `next dev` reload) replaces the previous one.
 */
export function startPollLoop(name: string, pass: (signal: AbortSignal) => Promise<void>, intervalMs: number): PollLoop {
  const registry = (loops.__storefrontLoops ??= new Map());
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
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
    running = pass(stopping.signal).finally(() => {
      running = undefined;
      const again = kicked;
      kicked = false;
      schedule(again ? 0 : intervalMs);
    });
  }

  const previous = registry.get(name);
  const loop: PollLoop = {
    kick() {
      if (stopped) return;
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
      if (registry.get(name) === loop) registry.delete(name);
    },
  };
  registry.set(name, loop);
  void previous?.stop();
  schedule(0);
  return loop;
}

/** Asks the process's loop of that name, if one runs, for a pass now. */
export function kickLoop(name: string): void {
  loops.__storefrontLoops?.get(name)?.kick();
}
