type Cleanup = () => Promise<void>;

const globalForShutdown = globalThis as typeof globalThis & { __storefrontShutdown?: Cleanup[] };

/**
 * Registers work to do before the process ends on SIGINT/SIGTERM (stop local chains, close the database).
 * One handler runs all of it, at most 10 s, then lets the signal end the process.
 */
export function onShutdown(cleanup: Cleanup): void {
  if (!globalForShutdown.__storefrontShutdown) {
    const cleanups: Cleanup[] = [];
    globalForShutdown.__storefrontShutdown = cleanups;
    const run = (signal: NodeJS.Signals) => {
      const timeout = new Promise((r) => setTimeout(r, 10_000).unref());
      void Promise.race([Promise.allSettled(cleanups.map((c) => c())), timeout]).finally(() => {
        process.kill(process.pid, signal);
      });
    };
    process.once("SIGINT", run);
    process.once("SIGTERM", run);
  }
  globalForShutdown.__storefrontShutdown.push(cleanup);
}
