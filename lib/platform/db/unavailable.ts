import { DataDirLockedError } from "./lock";
import { OUTAGE_HOLD_S } from "./outage";

/**
 * SQLSTATEs that say the server cannot serve this session now, not that the query is wrong: class 08 (the connection
 * failed or was cut), 57P01-57P03 (the server shutting down, crashed, or starting up / in recovery: a restart or a
 * failover), 57P05 (an idle session ended by the server) and 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1235]|53300)$/;

/** Socket errors of a server that is down, restarting or moving (failover: its name resolving elsewhere). */
const UNAVAILABLE_SOCKET = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

/**
 * What node-postgres and its pool throw without a code when a connection ends or none can be had in time, and what
 * PGlite throws once it is closing (the process stopping).
 */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable|Cannot use a pool after calling end|PGlite is clos)/;

/**
 * Whether `err` says that the database cannot be reached for now (connection refused or cut, the server restarting,
 * a failover, the pool's wait for a connection timed out, the embedded database held by another process or closing),
 * so that the same request may succeed in a few seconds: the one place that tells a database outage from a failure of
 * ours. Looks through the error's causes (drizzle wraps the driver's error; openDatabase wraps the connect's) and an
 * AggregateError's errors (a connect that tried several addresses).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue = [err];
  while (queue.length > 0) {
    const e = queue.shift();
    if (typeof e !== "object" || e === null || seen.has(e)) continue;
    seen.add(e);
    if (e instanceof DataDirLockedError) return true;
    const { code, message, cause, errors } = e as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string" && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET.has(code))) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message)) return true;
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...(errors as unknown[]));
  }
  return false;
}

/** How long a client is asked to wait (Retry-After, seconds) while the database is unreachable: a restart's time. */
export const DATABASE_RETRY_AFTER_S = OUTAGE_HOLD_S;
