import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";
import { redactUrls } from "./errors";

type Ids = Record<string, string | number | undefined>;
type Bindings = Record<string, string | number>;

/** The ids of what the code running now is about: a request, then the invoice, order or merchant it turns to. */
const context = new AsyncLocalStorage<Bindings>();

const defined = (ids: Ids): Bindings => Object.fromEntries(Object.entries(ids).filter((e): e is [string, string | number] => e[1] !== undefined));

/** Runs `fn` with these ids added to every log line written inside it, however deep and however late (async). */
export function withLogContext<T>(ids: Ids, fn: () => T): T {
  return context.run({ ...context.getStore(), ...defined(ids) }, fn);
}

/** Adds ids, once they are known (the merchant after authentication), to the lines of the rest of this context. */
export function addLogContext(ids: Ids): void {
  const store = context.getStore();
  if (store) Object.assign(store, defined(ids));
}

/** Runs `fn` about nothing in particular: a background round kicked by a request is not that request's. */
export function withoutLogContext<T>(fn: () => T): T {
  return context.exit(fn);
}

/** The ids of the current context (what tests check). */
export function logContext(): Readonly<Bindings> {
  return { ...context.getStore() };
}

// viem's "Request body: {…}" in a JSON line: up to the end of its line (an escaped newline) or of its string.
const REQUEST_BODY_IN_JSON = /Request body: (?:[^"\\]|\\[^n])*(?:\\n)?/g;

/**
 * The shop's log: one JSON object a line on stdout (level, time, msg, and the ids of what it is about: `request_id`,
 * `invoice_id`, `order_id`, `merchant_id`), what log collectors (Vercel, Docker, Loki, Datadog) read as they are.
 * `LOG_LEVEL` (trace … fatal, default info). Secrets and codes never go in: fields of these names are redacted
 * wherever they appear, URLs are written without credentials, path or query (RPC keys), and callers pass ids, never
 * request bodies or headers.
 */
export function createLog(destination?: pino.DestinationStream): pino.Logger {
  return pino(
    {
      level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "error" : "info"),
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
      // Last, on the line as written: every URL cut to its host, wherever it is (a message, an error, its causes, a
      // field), and viem's request bodies left out.
      hooks: { streamWrite: (line) => redactUrls(line.replace(REQUEST_BODY_IN_JSON, "")) },
      // The context's ids, except those that a child log (`logFor`) already names.
      mixin: (_line, _level, logger) => {
        const store = context.getStore();
        if (!store) return {};
        const bound = logger.bindings();
        return Object.fromEntries(Object.entries(store).filter(([k]) => !(k in bound)));
      },
    },
    destination,
  );
}

export const log = createLog();

export type Log = pino.Logger;

/** A child log about one thing: `logFor({ invoice_id })`. */
export function logFor(bindings: Ids): Log {
  return log.child(defined(bindings));
}
