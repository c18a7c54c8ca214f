import { after } from "next/server";
import { log, withoutLogContext } from "@/lib/platform/log";
import { registerLoop, type PollLoop } from "@/lib/platform/runtime/poll-loop";
import { LOOPS } from "./background";
import { runRound } from "./round";

/** A round after a response stops taking work after this long (a Vercel function may run 60 s). */
const ROUND_BUDGET_MS = 25_000;

export type RoundsAfterResponseOptions = {
  /** The round to run: runRound (lib/server/round.ts) unless a test gives its own. */
  round?: (opts: { budgetMs: number }) => Promise<unknown>;
  /** What runs a task once the response is sent: Next.js's `after()` unless a test gives its own. */
  after?: (task: () => Promise<void>) => void;
};

/**
 * The background work where no process lives between requests (Vercel), which runs no loop: the round of every job
 * (lib/server/round.ts) runs from Vercel Cron, and after the response of a request that kicked a worker (a payment, a
 * final invoice's webhook message), so that codes and webhooks do not wait for the next cron. The server's start
 * registers, under the names of a Node server's loops (LOOPS), one loop whose kick runs that round once the answer is
 * sent (`after()`): `kickWorker()` and `kickWebhookWorker()` reach it as they reach a Node server's loops. One round
 * per function instance at a time: a kick while it runs asks for one more after it (the payment it announces may have
 * come after the round looked).
 */
export function startRoundsAfterResponse(opts: RoundsAfterResponseOptions = {}): PollLoop {
  const round = opts.round ?? runRound;
  const afterResponse = opts.after ?? after;
  let current: { again: boolean } | undefined;
  let stopped = false;
  const loop: PollLoop = {
    kick() {
      if (stopped) return;
      if (current) {
        current.again = true;
        return;
      }
      const mine = (current = { again: false });
      try {
        afterResponse(async () => {
          try {
            do {
              mine.again = false;
              // The round's lines are about the orders and deliveries it takes, not about the request that kicked it.
              await withoutLogContext(() => round({ budgetMs: ROUND_BUDGET_MS }));
            } while (mine.again && !stopped);
          } catch (err) {
            log.error({ err }, "the round after the response failed");
          } finally {
            current = undefined;
          }
        });
      } catch (err) {
        // Outside a request (a script): nothing to attach the round to; cron runs it.
        current = undefined;
        log.warn({ err }, "cannot run a round after the response here: cron runs it");
      }
    },
    async stop() {
      stopped = true;
      for (const unregister of registered) unregister();
    },
  };
  const registered = LOOPS.map((name) => registerLoop(name, loop));
  return loop;
}
