import pino from "pino";

/**
 * The shop's log: one JSON object a line on stdout (level, time, msg, and the ids of what it is about: `request_id`,
 * `invoice_id`, `order_id`, `merchant_id`), what log collectors (Vercel, Docker, Loki, Datadog) read as they are.
 * `LOG_LEVEL` (trace … fatal, default info). Secrets and codes never go in: fields of these names are redacted
 * wherever they appear, and callers pass ids, never request bodies or headers.
 */
export function createLog(destination?: pino.DestinationStream): pino.Logger {
  return pino(
    {
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info"),
  base: { service: "storefront" },
  messageKey: "msg",
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  redact: {
    paths: [
      "authorization",
      "*.authorization",
      "secret",
      "*.secret",
      "api_secret",
      "*.api_secret",
      "token",
      "*.token",
      "code",
      "*.code",
      "pin",
      "*.pin",
      "redemption",
      "*.redemption",
      "privateKey",
      "*.privateKey",
      "password",
      "*.password",
      "databaseUrl",
      "*.databaseUrl",
    ],
    censor: "[redacted]",
  },
  serializers: { err: pino.stdSerializers.err },
    },
    destination,
  );
}

export const log = createLog();

export type Log = pino.Logger;

/** A child log about one thing: `logFor({ invoice_id })`. */
export function logFor(bindings: Record<string, string | number | undefined>): Log {
  return log.child(Object.fromEntries(Object.entries(bindings).filter(([, v]) => v !== undefined)));
}
