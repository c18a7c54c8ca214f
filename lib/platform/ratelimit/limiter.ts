import { createHash } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import { rateLimitHeaders, reportedState, secondsUntil, type PolicyState } from "./headers";
import { DEFAULT_POLICIES, merchantPolicyName, type LimitRule, type MerchantRouteId, type Policy, type RateLimitPolicies } from "./policies";
import type { Count } from "./sliding-log";
import { openStore, type LogStore, type RateLimitStore, type StoreKind } from "./store";

/** The answer for one request. */
export type RateLimitDecision = {
  allowed: boolean;
  /** Set these on the response, whatever its status: the X-RateLimit-*, RateLimit-* and (on a refusal) Retry-After fields. */
  headers: Record<string, string>;
  /** On a refusal: the policy that refused, and the seconds until its window ends (the Retry-After value). */
  refusedBy: Policy | undefined;
  retryAfterSec: number | undefined;
};

export type RateLimiter = {
  readonly storeKind: StoreKind;
  /**
   * Counts one merchant API request of an account on a route, and on the product quota for the routes it covers. All
   * keys of one account share its budgets (the spec's limits are the account's, not a key's).
   */
  consume(routeId: MerchantRouteId, accountId: string): Promise<RateLimitDecision>;
  /** Counts one merchant API request that no credential counts (401, 403, 404, 405) against its client IP. */
  consumeAnonymous(ip: string | undefined): Promise<RateLimitDecision>;
  /** Counts one /x402 request against its client IP and, once known, its wallet (payer, SIWX or session token). */
  consumeX402(client: { ip?: string; wallet?: string }): Promise<RateLimitDecision>;
  /**
   * Counts one dashboard sign-in attempt against its client IP and the credential id tried; refused when either has
   * no room. Call `forgiveSignIn` with the same subject when the attempt succeeds, so that only failures add up.
   */
  consumeSignIn(subject: SignInSubject): Promise<RateLimitDecision>;
  /** Gives back the point of a successful sign-in attempt. */
  forgiveSignIn(subject: SignInSubject): Promise<void>;
  /**
   * Counts one gift card code tried against its client IP and its holder (a wallet, a merchant account); refused when
   * either has no room. `forgiveGiftCardGuess` gives the point back when the code named a card.
   */
  consumeGiftCardGuess(subject: GuessSubject): Promise<RateLimitDecision>;
  forgiveGiftCardGuess(subject: GuessSubject): Promise<void>;
  /** Counts one demo merchant made on the devnet against its client IP (loopback clients share one budget). */
  consumeDemoMerchant(ip: string | undefined): Promise<RateLimitDecision>;
  /** Stops the store's timers. The store's client (pool, Redis connection) belongs to the caller. */
  close(): Promise<void>;
};

/** Who a gift card code tried counts against: the client's address (when known) and who tries it (a wallet, an account). */
export type GuessSubject = { ip?: string; holder?: string };

/** Who a dashboard sign-in attempt counts against: the client's address (when known) and the credential id tried. */
export type SignInSubject = { ip?: string; credential?: string };

/**
 * A limiter over one store. Each policy keeps, per subject, a sliding log of the requests it accepted
 * (lib/platform/ratelimit/sliding-log.ts): a request is let through while fewer than the policy's points were accepted in the
 * last `durationSec`, so no interval of that length ever holds more (a rolling window, as the merchant API's spec has it).
 *
 * When several policies apply (a product listing: the endpoint's and the product quota), the request is let through
 * only if every one has room, and a refused request is logged in none of them: it uses up nothing.
 */
export async function createRateLimiter(store: RateLimitStore, policies: RateLimitPolicies = DEFAULT_POLICIES): Promise<RateLimiter> {
  const merchantPolicies = new Map<MerchantRouteId, Policy>();
  for (const [routeId, rule] of Object.entries(policies.merchant) as [MerchantRouteId, LimitRule][]) {
    merchantPolicies.set(routeId, plainPolicy({ name: merchantPolicyName(routeId), ...rule }));
  }
  const quotaRoutes = new Set(policies.productQuota.routes);
  const quota = plainPolicy(policies.productQuota);
  const anonymous = plainPolicy(policies.merchantAnonymous);
  const x402Ip = plainPolicy(policies.x402.ip);
  const x402Wallet = plainPolicy(policies.x402.wallet);
  const signInIp = plainPolicy(policies.dashboardSignIn.ip);
  const signInCredential = plainPolicy(policies.dashboardSignIn.credential);
  const guessIp = plainPolicy(policies.giftCardGuess.ip);
  const guessHolder = plainPolicy(policies.giftCardGuess.holder);
  const demoMerchant = plainPolicy(policies.demoMerchant);
  const logs = await openStore(store);
  const countsOf = (counts: { policy: Policy; subject: string }[]): Count[] =>
    counts.map(({ policy, subject }) => ({ policy, key: `${policy.name}:${subjectKey(subject)}` }));
  const check = (counts: { policy: Policy; subject: string }[]) => decide(logs, countsOf(counts));

  return {
    storeKind: logs.kind,

    consume(routeId, accountId) {
      const policy = merchantPolicies.get(routeId);
      if (!policy) return Promise.reject(new Error(`No rate limit for the route ${routeId}`));
      const counts = [{ policy, subject: accountId }];
      if (quotaRoutes.has(routeId)) counts.push({ policy: quota, subject: accountId });
      return check(counts);
    },

    consumeAnonymous(ip) {
      return check([{ policy: anonymous, subject: ip ? ipSubject(ip) : "ip:loopback" }]);
    },

    consumeX402({ ip, wallet }) {
      const counts: { policy: Policy; subject: string }[] = [];
      if (ip) counts.push({ policy: x402Ip, subject: ipSubject(ip) });
      if (wallet) counts.push({ policy: x402Wallet, subject: walletSubject(wallet) });
      return check(counts);
    },

    consumeSignIn(subject) {
      return check(signInCounts(subject));
    },

    forgiveSignIn(subject) {
      return logs.giveBack(countsOf(signInCounts(subject)));
    },

    consumeGiftCardGuess(subject) {
      return check(guessCounts(subject));
    },

    forgiveGiftCardGuess(subject) {
      return logs.giveBack(countsOf(guessCounts(subject)));
    },

    consumeDemoMerchant(ip) {
      return check([{ policy: demoMerchant, subject: ip ? ipSubject(ip) : "ip:loopback" }]);
    },

    close: () => logs.close(),
  };

  function guessCounts({ ip, holder }: GuessSubject) {
    const counts: { policy: Policy; subject: string }[] = [];
    if (ip) counts.push({ policy: guessIp, subject: ipSubject(ip) });
    if (holder) counts.push({ policy: guessHolder, subject: walletSubject(holder) });
    return counts;
  }

  function signInCounts({ ip, credential }: SignInSubject) {
    const counts: { policy: Policy; subject: string }[] = [];
    if (ip) counts.push({ policy: signInIp, subject: ipSubject(ip) });
    if (credential) counts.push({ policy: signInCredential, subject: credential });
    return counts;
  }
}

/** Just the policy's fields (a decision's `refusedBy` shows no more), checked once here rather than failing per request. */
function plainPolicy({ name, points, durationSec }: Policy): Policy {
  if (!Number.isInteger(points) || points < 1 || !Number.isInteger(durationSec) || durationSec < 1) {
    throw new Error(`Rate limit ${name} needs whole, positive points and seconds (got ${points} per ${durationSec} s)`);
  }
  return { name, points, durationSec };
}

async function decide(logs: LogStore, counts: Count[]): Promise<RateLimitDecision> {
  if (counts.length === 0) return { allowed: true, headers: {}, refusedBy: undefined, retryAfterSec: undefined };
  const now = Date.now();
  const { accepted, states: logStates } = await logs.take(counts, now);
  const states: PolicyState[] = counts.map(({ policy }, i) => {
    const { used, freesAt } = logStates[i]!;
    return {
      policy,
      remaining: Math.max(0, policy.points - used),
      msBeforeReset: freesAt === undefined ? 0 : Math.max(0, freesAt - now),
      // The logs that had no room refused the request (the others, though they had room, did not log it either).
      refused: !accepted && used >= policy.points,
    };
  });
  const shown = accepted ? undefined : reportedState(states);
  return {
    allowed: accepted,
    headers: rateLimitHeaders(states, now),
    refusedBy: shown?.policy,
    retryAfterSec: shown ? Math.max(1, secondsUntil(shown.msBeforeReset)) : undefined,
  };
}

/** Store keys stay short (PostgreSQL's column is varchar(255)): a long subject is replaced by its hash. */
function subjectKey(subject: string): string {
  return subject.length <= 100 ? subject : `sha256:${createHash("sha256").update(subject).digest("hex")}`;
}

/** EVM addresses are case-insensitive (EIP-55 is only a checksum); Solana's base58 is not, and is kept as given. */
export function walletSubject(wallet: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(wallet) ? wallet.toLowerCase() : wallet;
}

/**
 * The IP key: an IPv4 address as it is; an IPv6 address by its /64, the block one subscriber line usually gets
 * (counting single IPv6 addresses would let one client rotate through 2^64 of them); an IPv4-mapped IPv6 address as IPv4.
 */
export function ipSubject(ip: string): string {
  const address = ip.trim();
  const v4 = ipv4Of(address);
  if (v4) return v4;
  if (!isIPv6(address)) return address;
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

/**
 * The network an address belongs to, for bounds wider than one client: an IPv6 address by its /48, the prefix a
 * site gets (a tunnel broker hands one out for free, and it holds 65,536 /64s); an IPv4 address by its /24, the
 * smallest block routed to one holder (single IPv4 addresses cost money, but a holder of a block has 256 of them); an
 * IPv4-mapped IPv6 address as IPv4. Null for anything that is not an IP address.
 */
export function ipNetwork(ip: string): string | null {
  const address = ip.trim();
  const v4 = ipv4Of(address);
  if (v4) return `${v4.split(".").slice(0, 3).join(".")}.0/24`;
  if (!isIPv6(address)) return null;
  return `${expandIPv6(address).slice(0, 3).join(":")}::/48`;
}

/** An IPv4 address as it is, or the one an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) carries; else undefined. */
function ipv4Of(address: string): string | undefined {
  if (isIPv4(address)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  return mapped && isIPv4(mapped) ? mapped : undefined;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros ("2001:db8::1" -> 2001, db8, 0, ..., 1). */
function expandIPv6(address: string): string[] {
  const withoutZone = address.split("%")[0] ?? address;
  const [head = "", tail] = withoutZone.toLowerCase().split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  // An embedded IPv4 tail (::1.2.3.4) is two groups; it only matters past the /64 (and the /48), so it is counted, not converted.
  const width = (gs: string[]) => gs.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
  const zeros = tail === undefined ? [] : Array<string>(Math.max(0, 8 - width(left) - width(right))).fill("0");
  return [...left, ...zeros, ...right].map((g) => (g.includes(".") ? g : g.replace(/^0+(?=.)/, "")));
}
