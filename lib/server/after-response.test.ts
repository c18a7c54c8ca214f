import { afterEach, describe, expect, it } from "vitest";
import { kickWorker } from "@/lib/fulfilment";
import { kickWebhookWorker } from "@/lib/webhooks";
import type { PollLoop } from "@/lib/platform/runtime/poll-loop";
import { captureLog } from "@/test/log";
import { startRoundsAfterResponse } from "./after-response";

/** The rounds after the response as a Vercel instance's start registers them, with the responses' tasks held here. */
function vercelInstance(round: (opts: { budgetMs: number }) => Promise<unknown>) {
  const afterResponse: (() => Promise<void>)[] = [];
  loop = startRoundsAfterResponse({ round, after: (task) => afterResponse.push(task) });
  return afterResponse;
}

let loop: PollLoop | undefined;
afterEach(async () => {
  await loop?.stop();
  loop = undefined;
});

describe("the round after the response (Vercel)", () => {
  it("runs one round of every job once the answer of a request that kicked the fulfilment is sent", async () => {
    const rounds: number[] = [];
    const afterResponse = vercelInstance(async ({ budgetMs }) => rounds.push(budgetMs));
    kickWorker();
    // Nothing runs before the answer is sent.
    expect(rounds).toEqual([]);
    expect(afterResponse).toHaveLength(1);
    await afterResponse.shift()!();
    expect(rounds).toEqual([25_000]);
    // The webhook worker's kick (a final invoice's message) reaches the same round.
    kickWebhookWorker();
    await afterResponse.shift()!();
    expect(rounds).toEqual([25_000, 25_000]);
  });

  it("runs one round at a time: a kick while it runs asks for one more after it, kicks before it starts for none", async () => {
    let rounds = 0;
    const afterResponse = vercelInstance(async () => {
      rounds++;
      // The round's own payment settles a second invoice: its kick comes while the round runs.
      if (rounds === 1) kickWorker();
    });
    kickWorker();
    kickWebhookWorker();
    expect(afterResponse).toHaveLength(1);
    await afterResponse.shift()!();
    expect(rounds).toBe(2);
    expect(afterResponse).toHaveLength(0);
  });

  it("logs a round that failed, and the next kick runs one again", async () => {
    const log = captureLog();
    try {
      let rounds = 0;
      const afterResponse = vercelInstance(async () => {
        if (++rounds === 1) throw new Error("database unreachable");
      });
      kickWorker();
      await afterResponse.shift()!();
      expect(log.lines.find((l) => l.msg === "the round after the response failed")).toBeDefined();
      kickWorker();
      await afterResponse.shift()!();
      expect(rounds).toBe(2);
    } finally {
      log.restore();
    }
  });

  it("outside a request leaves the work to cron, and once stopped reaches nothing", async () => {
    let rounds = 0;
    const log = captureLog();
    try {
      // Next.js's own after(): a kick outside a request (a script) has no answer to wait for.
      loop = startRoundsAfterResponse({ round: async () => rounds++ });
      kickWorker();
      expect(log.lines.find((l) => l.msg === "cannot run a round after the response here: cron runs it")).toBeDefined();
    } finally {
      log.restore();
    }
    const afterResponse = vercelInstance(async () => rounds++);
    await loop?.stop();
    kickWorker();
    expect(afterResponse).toHaveLength(0);
    expect(rounds).toBe(0);
  });
});
