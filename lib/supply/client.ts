import { z } from "zod";
import type { UpstreamConfig } from "@/lib/platform/config";
import { balanceSchema, invoiceSchema, orderSchema, productSchema } from "@/lib/api/merchant";
import { log } from "@/lib/platform/log";
import { RatePacer, UpstreamRateLimited } from "./rate-pacer";
import { tolerant } from "./tolerant";

export { UpstreamRateLimited } from "./rate-pacer";

/**
 * The answers of the merchant API v2 as this shop serves them (its own schemas, one source with the server side),
 * tolerant of fields they do not know.
 */
export const upstreamProduct = tolerant(productSchema);
export const upstreamInvoice = tolerant(invoiceSchema);
export const upstreamOrder = tolerant(orderSchema);
const upstreamBalance = tolerant(balanceSchema);
/** A page of products: its items are checked one by one (a product this shop cannot read is skipped, not the page). */
const productPage = z.object({ meta: z.object({ _next: z.string().optional(), total: z.number().optional() }), data: z.array(z.unknown()) });
const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });
const errorBody = z.object({ error_code: z.string(), message: z.string().optional() });

export type UpstreamProduct = z.output<typeof upstreamProduct>;
export type UpstreamInvoice = z.output<typeof upstreamInvoice>;
export type UpstreamOrder = z.output<typeof upstreamOrder>;

/** The upstream refused the request with a definite answer (a 4xx with its `error_code`): nothing was done for it. */
export class UpstreamRefusal extends Error {
  override name = "UpstreamRefusal";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * The upstream gave no usable answer (a network error, a timeout, a 5xx, an answer this shop cannot read): what the
 * request did there is unknown, so a creation is retried with the same Idempotency-Key, never a new one.
 */
export class UpstreamUnavailable extends Error {
  override name = "UpstreamUnavailable";
}

export type UpstreamClientOptions = {
  /** How long one request may take (10 s). */
  timeoutMs?: number;
  /** The longest the client waits by itself for a rate limit; a longer wait throws UpstreamRateLimited (2 s). */
  maxWaitMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
};

/**
 * A client of an upstream's merchant API v2. Every answer is read with this shop's own schemas. Rate limits are
 * honoured: the client paces itself by `X-RateLimit-Remaining`/`X-RateLimit-Reset`, and after a 429 waits as
 * `Retry-After` (or the reset) says, by itself when that is short, else by throwing UpstreamRateLimited with the time
 * to come back (the caller stops and resumes then). The credentials go only to the configured origin and are never
 * logged: log lines name the method, the path and the status.
 */
export class UpstreamClient {
  private readonly base: URL;
  private readonly authorization: string;
  private readonly pacer: RatePacer;
  private readonly timeoutMs: number;
  private readonly fetcher: typeof fetch;

  constructor(cfg: Pick<UpstreamConfig, "url" | "auth">, opts: UpstreamClientOptions = {}) {
    this.base = new URL(cfg.url.replace(/\/+$/, "") + "/");
    this.authorization =
      cfg.auth.kind === "bearer" ? `Bearer ${cfg.auth.token}` : `Basic ${Buffer.from(`${cfg.auth.id}:${cfg.auth.secret}`).toString("base64")}`;
    this.pacer = new RatePacer({ maxWaitMs: opts.maxWaitMs ?? 2_000, now: opts.now });
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.fetcher = opts.fetch ?? fetch;
  }

  /** One page of `GET /products` (50 products), or the page `next` names (the previous page's `meta._next`). */
  async products(next?: string): Promise<{ products: UpstreamProduct[]; skipped: number; next: string | undefined; total: number | undefined }> {
    const url = next ? this.sameOrigin(next) : this.url("products?limit=50");
    const page = productPage.safeParse(await this.request("GET", url, "products"));
    if (!page.success) throw new UpstreamUnavailable(`GET /products: an answer this shop cannot read (${page.error.issues[0]?.message})`);
    const products: UpstreamProduct[] = [];
    let skipped = 0;
    for (const raw of page.data.data) {
      const p = upstreamProduct.safeParse(raw);
      if (p.success) products.push(p.data);
      else skipped++;
    }
    if (skipped > 0) log.warn({ upstream: "GET /products", skipped }, "upstream products this shop cannot read were skipped");
    return { products, skipped, next: page.data.meta._next, total: page.data.meta.total };
  }

  /** `POST /invoices` with an Idempotency-Key: the same key (with the same body) never makes a second invoice upstream. */
  async createInvoice(body: Record<string, unknown> | string, idempotencyKey: string): Promise<UpstreamInvoice> {
    const answer = await this.request("POST", this.url("invoices"), "invoices", { body, headers: { "Idempotency-Key": idempotencyKey } });
    return this.read(dataOf(upstreamInvoice), answer, "POST /invoices").data;
  }

  async invoice(id: string): Promise<UpstreamInvoice> {
    const answer = await this.request("GET", this.url(`invoices/${encodeURIComponent(id)}`), "invoice");
    return this.read(dataOf(upstreamInvoice), answer, "GET /invoices/{id}").data;
  }

  async order(id: string): Promise<UpstreamOrder> {
    const answer = await this.request("GET", this.url(`orders/${encodeURIComponent(id)}`), "order");
    return this.read(dataOf(upstreamOrder), answer, "GET /orders/{id}").data;
  }

  /** The balance the upstream holds for this shop, in US cents. */
  async balance(): Promise<{ balance: number; currency: string }> {
    const answer = await this.request("GET", this.url("accounts/balance"), "balance");
    return this.read(dataOf(upstreamBalance), answer, "GET /accounts/balance").data;
  }

  private read<T extends z.ZodType>(schema: T, answer: unknown, what: string): z.output<T> {
    const parsed = schema.safeParse(answer);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UpstreamUnavailable(`${what}: an answer this shop cannot read (${issue?.path.join(".")}: ${issue?.message})`);
    }
    return parsed.data;
  }

  private url(path: string): URL {
    return new URL(path, this.base);
  }

  /** A URL the upstream handed out (`meta._next`): followed only on the upstream's own origin, where the credentials go. */
  private sameOrigin(href: string): URL {
    const url = new URL(href, this.base);
    if (url.origin !== this.base.origin) throw new UpstreamUnavailable(`the upstream's next page is on another origin (${url.origin}): not followed`);
    return url;
  }

  /**
   * One request, paced by the rate limit of its `bucket`; one more after a short 429. Answers the JSON of a 2xx;
   * throws UpstreamRefusal (4xx with an error code), UpstreamRateLimited or UpstreamUnavailable.
   */
  private async request(method: string, url: URL, bucket: string, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<unknown> {
    const what = `${method} ${url.pathname}`;
    for (let attempt = 0; ; attempt++) {
      await this.pacer.before(bucket);
      let res: Response;
      let text: string;
      try {
        res = await this.fetcher(url, {
          method,
          redirect: "error",
          signal: AbortSignal.timeout(this.timeoutMs),
          headers: {
            Authorization: this.authorization,
            Accept: "application/json",
            ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}),
            ...init.headers,
          },
          // A body given as text goes as it is (a retry under an Idempotency-Key must send the same bytes).
          body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
        });
        text = await res.text();
      } catch (err) {
        const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
        log.warn({ upstream: what, timed_out: timedOut }, "the upstream did not answer");
        throw new UpstreamUnavailable(timedOut ? `${what}: no answer within ${this.timeoutMs / 1000} s` : `${what}: ${(err as Error).message}`);
      }
      this.pacer.after(bucket, res.status, res.headers);
      if (res.status === 429) {
        const retryAt = this.pacer.blockedUntil(bucket);
        log.warn({ upstream: what, retry_at: new Date(retryAt).toISOString() }, "the upstream's rate limit was reached");
        if (attempt === 0 && this.pacer.canWait(bucket)) continue;
        throw new UpstreamRateLimited(`${what}: rate limited until ${new Date(retryAt).toISOString()}`, retryAt);
      }
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      if (res.ok) {
        if (json === undefined) throw new UpstreamUnavailable(`${what}: ${res.status} without a JSON body`);
        return json;
      }
      const refusal = errorBody.safeParse(json);
      if (res.status >= 400 && res.status < 500 && refusal.success) {
        log.info({ upstream: what, status: res.status, error_code: refusal.data.error_code }, "the upstream refused a request");
        throw new UpstreamRefusal(res.status, refusal.data.error_code, refusal.data.message ?? refusal.data.error_code, json as Record<string, unknown>);
      }
      log.warn({ upstream: what, status: res.status }, "the upstream failed a request");
      throw new UpstreamUnavailable(`${what}: ${res.status}${refusal.success ? ` ${refusal.data.error_code}` : ""}`);
    }
  }
}
