import type { Policy } from "./policies";

/** Where one policy stands for one subject after a request. */
export type PolicyState = {
  policy: Policy;
  /** Requests left in the rolling window (after this one, if it was let through). */
  remaining: number;
  /**
   * Milliseconds until the oldest request counted in the window leaves it and gives one request back: with none
   * left, the moment one more request becomes possible (X-RateLimit-Reset, Retry-After). 0 when none is counted.
   */
  msBeforeReset: number;
  /** This policy's quota was used up: the request is refused. */
  refused: boolean;
};

/**
 * The rate-limit header fields of a response, from the states of every policy that applied to its request.
 *
 * - `X-RateLimit-Limit/Remaining/Reset` (Reset in Unix seconds, rounded up: when the oldest counted request leaves the
 *   rolling window; with none remaining, the moment one more request becomes possible) describe one policy: the one that refused the request
 *   (the longest wait if several did), else the tightest, the one with the fewest requests left (on a tie the one
 *   that resets last). A product listing shows the product quota once it has fewer left than the endpoint's minute.
 * - `RateLimit-Limit/Remaining/Reset` (Reset in seconds from now): the same policy in the IETF draft's earlier form,
 *   which an older client of the original API reads.
 * - `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers-11): every applied policy, as a
 *   structured-field list, e.g. `"get-products";q=60;w=60, "products-hourly";q=1000;w=3600`.
 * - `Retry-After` (seconds, at least 1) only on a refusal: until the refusing log has room again, as Reset says.
 */
export function rateLimitHeaders(states: readonly PolicyState[], now = Date.now()): Record<string, string> {
  const shown = reportedState(states);
  if (!shown) return {};
  const resetSec = secondsUntil(shown.msBeforeReset);
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(shown.policy.points),
    "X-RateLimit-Remaining": String(shown.remaining),
    "X-RateLimit-Reset": String(Math.ceil((now + Math.max(0, shown.msBeforeReset)) / 1000)),
    "RateLimit-Limit": String(shown.policy.points),
    "RateLimit-Remaining": String(shown.remaining),
    "RateLimit-Reset": String(resetSec),
    "RateLimit-Policy": states.map((s) => `${sfString(s.policy.name)};q=${s.policy.points};w=${s.policy.durationSec}`).join(", "),
    RateLimit: states.map((s) => `${sfString(s.policy.name)};r=${s.remaining};t=${secondsUntil(s.msBeforeReset)}`).join(", "),
  };
  if (shown.refused) headers["Retry-After"] = String(Math.max(1, resetSec));
  return headers;
}

/** The state the single-policy headers report: see {@link rateLimitHeaders}. */
export function reportedState(states: readonly PolicyState[]): PolicyState | undefined {
  const refused = states.filter((s) => s.refused);
  const candidates = refused.length > 0 ? refused : states;
  let best: PolicyState | undefined;
  for (const s of candidates) {
    if (
      !best ||
      (refused.length > 0
        ? s.msBeforeReset > best.msBeforeReset
        : s.remaining < best.remaining || (s.remaining === best.remaining && s.msBeforeReset > best.msBeforeReset))
    ) {
      best = s;
    }
  }
  return best;
}

/** Whole seconds until a moment `ms` from now, rounded up so that a client waiting that long is never early. */
export function secondsUntil(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

/** A structured-field String (RFC 9651): quoted, with `\` and `"` escaped. Policy names are ours and plain ASCII. */
function sfString(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}
