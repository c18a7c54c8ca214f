import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { checkAddress, type NetworkMode } from "./address";

/** Resolves a host name to all its addresses (dns.lookup, as a connection would). Tests pass their own. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export const MAX_WEBHOOK_URL_LENGTH = 2048;
const RESOLVE_TIMEOUT_MS = 5_000;

export type ResolvedAddress = { address: string; family: 4 | 6 };

/** A webhook URL that passed the guard, with the addresses it was checked at: the request connects only to those. */
export type WebhookTarget = { url: URL; addresses: ResolvedAddress[] };

type Refusal = { ok: false; reason: string };

/**
 * The checks a URL's text can answer: an absolute URL of at most 2048 characters, `https:` (devnet mode: also
 * `http:`), no user name or password (they would be shown in the delivery log, and are not sent), and, when the host is
 * an IP address, an address webhooks may go to.
 */
export function parseWebhookUrl(raw: string, mode: NetworkMode): { ok: true; url: URL } | Refusal {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, reason: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "is not an absolute URL" };
  }
  const schemes = mode === "devnet" ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) {
    return { ok: false, reason: mode === "devnet" ? "must be an http or https URL" : "must be an https URL" };
  }
  if (url.username || url.password) return { ok: false, reason: "must not contain a user name or password" };
  if (!url.hostname) return { ok: false, reason: "has no host" };
  const literal = hostAddress(url);
  if (literal) {
    const verdict = checkAddress(literal, mode);
    if (!verdict.ok) return { ok: false, reason: `goes to ${literal}, ${verdict.what}` };
  }
  return { ok: true, url };
}

/**
 * The full guard, run before every send: the URL's own checks, then every address its host resolves to must be
 * public (devnet mode: or loopback). Refusing the whole host when one address is not leaves no way to reach an
 * internal address by round robin. The caller connects to the returned addresses only, so a second DNS answer
 * (rebinding) cannot send the request elsewhere.
 */
export async function resolveWebhookTarget(
  raw: string,
  mode: NetworkMode,
  opts: { resolve?: Resolver } = {},
): Promise<({ ok: true } & WebhookTarget) | (Refusal & { dnsCode?: string })> {
  const parsed = parseWebhookUrl(raw, mode);
  if (!parsed.ok) return parsed;
  const { url } = parsed;
  const literal = hostAddress(url);
  if (literal) return { ok: true, url, addresses: [{ address: literal, family: isIP(literal) === 6 ? 6 : 4 }] };

  let found: { address: string; family: number }[];
  try {
    found = await withTimeout(
      (opts.resolve ?? systemResolver)(url.hostname),
      RESOLVE_TIMEOUT_MS,
      `resolving ${url.hostname} took over ${RESOLVE_TIMEOUT_MS} ms`,
    );
  } catch (err) {
    const code = (err as { code?: string }).code;
    return {
      ok: false,
      reason: `host ${url.hostname} does not resolve (${code ?? (err instanceof Error ? err.message : String(err))})`,
      dnsCode: code ?? "ETIMEOUT",
    };
  }
  if (found.length === 0) return { ok: false, reason: `host ${url.hostname} does not resolve`, dnsCode: "ENODATA" };
  const addresses: ResolvedAddress[] = [];
  for (const { address } of found) {
    const verdict = checkAddress(address, mode);
    if (!verdict.ok) return { ok: false, reason: `host ${url.hostname} resolves to ${address}, ${verdict.what}` };
    addresses.push({ address, family: isIP(address) === 6 ? 6 : 4 });
  }
  return { ok: true, url, addresses };
}

/**
 * Whether a merchant's `webhook_url` can be accepted, for invoice creation to refuse a bad one early (the reason reads
 * after the parameter name: "webhook_url must be an https URL"). A host that does not exist is refused; when DNS
 * merely fails to answer, the URL is accepted and the guard decides again at every send.
 */
export async function checkWebhookUrl(raw: string, mode: NetworkMode, opts: { resolve?: Resolver } = {}): Promise<{ ok: true; url: string } | Refusal> {
  const target = await resolveWebhookTarget(raw, mode, opts);
  if (target.ok) return { ok: true, url: target.url.href };
  if (target.dnsCode && !["ENOTFOUND", "ENODATA"].includes(target.dnsCode)) {
    const parsed = parseWebhookUrl(raw, mode);
    if (parsed.ok) return { ok: true, url: parsed.url.href };
  }
  return { ok: false, reason: target.reason };
}

/** The URL's host when it is an IP address (brackets of IPv6 removed), else undefined. */
function hostAddress(url: URL): string | undefined {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : undefined;
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(message), { code: "ETIMEOUT" })), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
