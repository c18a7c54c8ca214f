/** The upstream's rate limit holds this kind of request until `retryAt` (Unix ms): stop, and come back then. */
export class UpstreamRateLimited extends Error {
  override name = "UpstreamRateLimited";
  constructor(
    message: string,
    readonly retryAt: number,
  ) {
    super(message);
  }
}

type Bucket = { remaining?: number; resetAt?: number; blockedUntil?: number };

/**
 * Paces requests by what the upstream's answers say of its limits, per kind of request (`bucket`): with none left
 * (`X-RateLimit-Remaining: 0`) nothing is sent before `X-RateLimit-Reset`; after a 429 nothing before `Retry-After`
 * (seconds or a date), else the reset, else a second; with few left the requests are spread over the time to the reset.
 * A wait up to `maxWaitMs` is slept; a longer one throws UpstreamRateLimited, so that no caller hangs on it.
 */
export class RatePacer {
  private readonly buckets = new Map<string, Bucket>();
  private readonly maxWaitMs: number;
  private readonly now: () => number;

  constructor(opts: { maxWaitMs: number; now?: () => number }) {
    this.maxWaitMs = opts.maxWaitMs;
    this.now = opts.now ?? Date.now;
  }

  /** Waits as the bucket's limit asks before a request, or throws UpstreamRateLimited when that is too long. */
  async before(bucket: string): Promise<void> {
    const wait = this.waitMs(bucket);
    if (wait <= 0) return;
    if (wait > this.maxWaitMs) throw new UpstreamRateLimited(`the upstream's rate limit holds ${bucket} requests`, this.now() + wait);
    await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /** Reads the rate-limit fields of an answer. */
  after(bucket: string, status: number, headers: Headers): void {
    const now = this.now();
    const b = this.buckets.get(bucket) ?? {};
    const remaining = intHeader(headers, "x-rateLimit-remaining") ?? intHeader(headers, "ratelimit-remaining");
    const resetSec = intHeader(headers, "x-ratelimit-reset");
    const resetIn = intHeader(headers, "ratelimit-reset");
    b.remaining = remaining;
    b.resetAt = resetSec !== undefined ? resetSec * 1000 : resetIn !== undefined ? now + resetIn * 1000 : undefined;
    if (status === 429) {
      const retryAfter = retryAfterMs(headers.get("retry-after"), now);
      b.blockedUntil = retryAfter !== undefined ? now + retryAfter : b.resetAt && b.resetAt > now ? b.resetAt : now + 1_000;
    } else if (b.remaining === 0 && b.resetAt !== undefined && b.resetAt > now) {
      b.blockedUntil = b.resetAt;
    } else {
      b.blockedUntil = undefined;
    }
    this.buckets.set(bucket, b);
  }

  /** Until when the bucket is held (Unix ms; now when it is not). */
  blockedUntil(bucket: string): number {
    return Math.max(this.now(), this.buckets.get(bucket)?.blockedUntil ?? 0);
  }

  canWait(bucket: string): boolean {
    return this.waitMs(bucket) <= this.maxWaitMs;
  }

  private waitMs(bucket: string): number {
    const b = this.buckets.get(bucket);
    if (!b) return 0;
    const now = this.now();
    if (b.blockedUntil !== undefined && b.blockedUntil > now) return b.blockedUntil - now;
    // Few left: spread them over the time to the reset rather than spend them at once and then wait it out.
    if (b.remaining !== undefined && b.remaining <= 3 && b.resetAt !== undefined && b.resetAt > now) {
      return Math.min(Math.ceil((b.resetAt - now) / (b.remaining + 1)), this.maxWaitMs);
    }
    return 0;
  }
}

function intHeader(headers: Headers, name: string): number | undefined {
  const v = headers.get(name)?.trim();
  return v && /^\d{1,15}$/.test(v) ? Number(v) : undefined;
}

/** `Retry-After` as delay-seconds or an HTTP date, in ms from now. */
function retryAfterMs(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d{1,9}$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
