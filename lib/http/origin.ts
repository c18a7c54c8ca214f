import { config } from "@/lib/config";

/**
 * The shop's public origin: PUBLIC_ORIGIN when configured, otherwise the one the request came to
 * (behind a proxy, its X-Forwarded-Host and X-Forwarded-Proto), so that `npm run dev` needs no setting.
 */
export function publicOrigin(request: Request, configured = config().publicOrigin): string {
  if (configured) return configured;
  const url = new URL(request.url);
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host") || url.host;
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.replace(/:$/, "");
  return `${proto === "https" ? "https" : "http"}://${host}`;
}
