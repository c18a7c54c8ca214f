import { DomainError } from "@/lib/platform/errors";
import { log } from "@/lib/platform/log";
import { getRateLimiter, type GuessSubject, type RateLimitDecision } from "@/lib/platform/ratelimit";

/** A code that names no card: the only kind of try that stays counted. */
export const isWrongCode = (err: unknown) => err instanceof DomainError && err.code === "unknown_gift_card";

/**
 * Runs `work`, which looks up a gift card code, as one try of `subject` (lib/platform/ratelimit GIFT_CARD_GUESS_LIMITS): every
 * try counts before the look-up (parallel guesses cannot slip past), and one whose code named a card gives its point
 * back, so only wrong codes add up. When the subject has tried too many, `refused` makes the adapter's 429.
 */
export async function countedGuess<T>(subject: GuessSubject, work: () => Promise<T>, refused: (decision: RateLimitDecision) => Error): Promise<T> {
  const limiter = await getRateLimiter();
  const decision = await limiter.consumeGiftCardGuess(subject);
  if (!decision.allowed) throw refused(decision);
  const forgive = () =>
    limiter.forgiveGiftCardGuess(subject).catch((err: unknown) => log.error({ err }, "rate limit store failed to give a gift card try back"));
  try {
    const result = await work();
    await forgive();
    return result;
  } catch (err) {
    if (!isWrongCode(err)) await forgive();
    throw err;
  }
}
