// Runs once when the server starts (next dev, next start, the standalone server, a Vercel function's cold start):
// traces when an OTLP endpoint is configured, then the configuration and the database (opened, migrated and seeded
// before the first request), so that a bad setting stops start-up with a clear message.
export async function register() {
  // OpenTelemetry traces of requests, fetches and rendering, sent to OTEL_EXPORTER_OTLP_ENDPOINT (OTLP over HTTP;
  // OTEL_EXPORTER_OTLP_HEADERS for credentials), as Next.js documents it. Off without the endpoint.
  if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    const { registerOTel } = await import("@vercel/otel");
    registerOTel({ serviceName: process.env.OTEL_SERVICE_NAME ?? "x402-storefront" });
  }
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // A browser that closed mid-request is not an uncaught exception of the shop (nor an error): noted at debug level.
  const { quietClientAborts } = await import("@/lib/platform/runtime/client-aborts");
  quietClientAborts();
  const { installPeerAddress } = await import("@/lib/platform/http/peer-address");
  installPeerAddress();
  // The domain's event listeners, before anything can emit.
  await import("./lib/wiring");
  const { startServer } = await import("./lib/server/start");
  await startServer();
}

/**
 * A request that failed because the database is unreachable (a page's render, most often: the APIs answer it themselves)
 * holds the pages back for a moment, answered 503 by the proxy (lib/platform/db/outage.ts) rather than each failing in turn.
 */
export async function onRequestError(err: unknown) {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { isDatabaseUnavailable } = await import("./lib/platform/db/unavailable");
  if (!isDatabaseUnavailable(err)) return;
  const { noteDatabaseOutage } = await import("./lib/platform/db/outage");
  noteDatabaseOutage();
}
