import { z } from "zod";

const whole = () => z.coerce.number({ error: "must be a whole number" }).int("must be a whole number");

/** `limit`: 1 to `max` items per page (the spec's lists: 50). */
export const limitParam = (max = 50, fallback = max) => whole().min(1, `must be 1 to ${max}`).max(max, `must be 1 to ${max}`).default(fallback);
/** `start`: how many items to skip. */
export const startParam = whole().min(0, "must be 0 or more").max(1_000_000).default(0);

/**
 * `meta._next`: the same request on the public origin with the paging parameters changed (undefined ones removed),
 * as an absolute URL that clients follow until it is absent.
 */
export function nextPage(url: URL, origin: string, change: Record<string, string | undefined>): string {
  const next = new URL(url.pathname + url.search, origin);
  for (const [k, v] of Object.entries(change)) {
    if (v === undefined) next.searchParams.delete(k);
    else next.searchParams.set(k, v);
  }
  return next.toString();
}

/** The next offset page, when items remain after this one. */
export function nextOffsetPage(url: URL, origin: string, page: { start: number; limit: number; count: number; total: number }): string | undefined {
  return page.start + page.count < page.total ? nextPage(url, origin, { start: String(page.start + page.limit), limit: String(page.limit) }) : undefined;
}
