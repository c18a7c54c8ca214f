import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { kickLoop, startPollLoop, type PassOutcome, type PollLoop } from "./poll-loop";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** A loop whose passes record when they ran (in ms of the fake clock) and say what `outcomes` says for each. */
function loopOf(outcomes: () => PassOutcome, intervalMs: number, idleMaxMs?: number) {
  const started = Date.now();
  const runs: number[] = [];
  const loop = startPollLoop(
    "poll-loop test",
    async () => {
      runs.push(Date.now() - started);
      return outcomes();
    },
    intervalMs,
    { idleMaxMs },
  );
  return { loop, runs };
}

let loop: PollLoop | undefined;
afterEach(() => loop?.stop());

describe("startPollLoop", () => {
  it("passes at its interval while they find work", async () => {
    const l = loopOf(() => undefined, 100, 800);
    loop = l.loop;
    await vi.advanceTimersByTimeAsync(450);
    expect(l.runs).toEqual([0, 100, 200, 300, 400]);
  });

  it("doubles the pause after each idle pass, up to idleMaxMs; a pass that finds work brings back the interval", async () => {
    let idle = true;
    const l = loopOf(() => (idle ? "idle" : undefined), 100, 400);
    loop = l.loop;
    await vi.advanceTimersByTimeAsync(1_500);
    // Pauses of 200, 400, 400, 400 ms after the idle passes.
    expect(l.runs).toEqual([0, 200, 600, 1_000, 1_400]);
    idle = false;
    await vi.advanceTimersByTimeAsync(1_000);
    // The pass at 1 800 found work: the next comes 100 ms after it.
    expect(l.runs.slice(5, 8)).toEqual([1_800, 1_900, 2_000]);
  });

  it("a kick starts a pass at once and brings back the interval", async () => {
    const l = loopOf(() => "idle", 100, 1_600);
    loop = l.loop;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(l.runs).toEqual([0, 200, 600]);
    // Idle, the next pass would be at 1 400; a kick at 1 000 runs one now, and the pause after it starts again from
    // the interval (doubled, as that pass is idle too).
    kickLoop("poll-loop test");
    await vi.advanceTimersByTimeAsync(300);
    expect(l.runs).toEqual([0, 200, 600, 1_000, 1_200]);
  });

  it("without idleMaxMs, an idle pass does not lengthen the pause", async () => {
    const l = loopOf(() => "idle", 100);
    loop = l.loop;
    await vi.advanceTimersByTimeAsync(350);
    expect(l.runs).toEqual([0, 100, 200, 300]);
  });
});
