import { config } from "@/lib/platform/config";

type HeaderReader = { get(name: string): string | null };

/**
 * The shop's public origin: PUBLIC_ORIGIN when configured, otherwise the one the request came to
 * (behind a proxy, its X-Forwarded-Host and X-Forwarded-Proto), so that `npm run dev` needs no setting.
 */
export function publicOrigin(request: Request, configured = config().publicOrigin): string {
  return publicOriginFrom(request.headers, new URL(request.url), configured);
}

/** `publicOrigin` from a request's headers alone (server components and actions see no Request); `url` when they name no host. */
export function publicOriginFrom(headers: HeaderReader, url?: URL, configured = config().publicOrigin): string {
  if (configured) return configured;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host") || url?.host || "localhost";
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url?.protocol.replace(/:$/, "") || "http";
  return `${proto === "https" ? "https" : "http"}://${host}`;
}

/**
 * Whether a POST comes from the shop's own pages: its Origin names the host it was sent to (X-Forwarded-Host behind a
 * proxy, as Next.js reads it), or the configured public origin. No Origin, or "null", is not.
 */
export function isSameOriginPost(headers: HeaderReader, configured = config().publicOrigin): boolean {
  const origin = headers.get("origin");
  if (!origin || origin === "null") return false;
  if (configured && origin === configured) return true;
  const host = headers.get("x-forwarded-host")?.split(",")[0]?.trim() || headers.get("host");
  try {
    return Boolean(host) && new URL(origin).host === host;
  } catch {
    return false;
  }
}
