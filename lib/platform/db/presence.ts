import { randomInt } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import pg from "pg";
import { log } from "@/lib/platform/log";

/**
 * The first key of the advisory locks that mark live claim holders (`pg_advisory_lock(int, int)`: in pg_locks,
 * `classid` = this, `objid` = the holder's key, `objsubid` = 2). The migrations' lock takes the one-key form: apart.
 */
export const HOLDER_LOCK_CLASS = 4020;

/**
 * How often the presence checks that its own session still holds its lock: never otherwise on a direct connection;
 * through a transaction pooler, the statements of one client run on whatever server connection is free, and a lock
 * taken by one stays with that connection (not with this process). The check also keeps the session from idling out.
 */
const CHECK_MS = 30_000;
const HOLDS_ITS_LOCK = `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = pg_backend_pid()
  AND classid = $1 AND objid = ($2::int)::oid AND objsubid = 2) AS held`;

/** How long the presence waits before it connects again after its session ended, at first and at most. */
const RECONNECT_MS = 1_000;
const MAX_RECONNECT_MS = 5_000;
/** A statement of the presence session that takes longer has lost its connection (a half-open socket). */
const QUERY_TIMEOUT_MS = 10_000;

type State = { key: number; held: boolean; stopped: boolean; client?: pg.Client };
/** On globalThis: the background loops (instrumentation.ts) and the cron route run in bundles of their own. */
const globalForPresence = globalThis as typeof globalThis & { __storefrontPresence?: State };

/**
 * The key that this process's claims name as their holder (`orders.locked_by`), or null while it holds no presence (not
 * started: PGlite, Vercel; or its session is being opened again): a claim without a holder holds until its lease lapses.
 */
export function claimHolder(): number | null {
  const p = globalForPresence.__storefrontPresence;
  return p && p.held && !p.stopped ? p.key : null;
}

/** Whether a claim's holder (`lockedBy`) is alive: a session of this database holds the holder's advisory lock. */
export function holderAlive(lockedBy: PgColumn | SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND l.classid = ${sql.raw(String(HOLDER_LOCK_CLASS))} AND l.objsubid = 2 AND l.objid = (${lockedBy})::oid)`;
}

export type Presence = { readonly key: number; stop(): Promise<void> };

/**
 * The process's presence on its PostgreSQL database, for the claims it makes: a session of its own (a direct URL: a
 * transaction pooler keeps no session) that holds an advisory lock under a random key for as long as the process
 * lives. PostgreSQL ends the session, and with it the lock, when the process ends in any way (SIGKILL, a crash, the
 * machine gone: TCP keepalive), so another server, or this one started again, can tell its claims from a live
 * server's without waiting for their lease (lib/fulfilment/claim.ts releaseDeadClaims).
 *
 * A session that ends while the process lives (the server restarted, the connection cut) is opened again, under the
 * same key when it is free. Meanwhile the process's new claims name no holder, and its earlier ones may be freed and
 * taken by another server: a claim's outcome is written only by its latest claim (`attempts`), and a provider asked
 * twice gives one outcome (Idempotency-Key, the code reserved for the order), as when a lease lapses.
 */
export async function startPresence(url: string, opts: { key?: number } = {}): Promise<Presence> {
  const previous = globalForPresence.__storefrontPresence;
  if (previous && !previous.stopped) throw new Error("this process holds a presence already");
  const state: State = { key: opts.key ?? newKey(), held: false, stopped: false };
  let retryMs = RECONNECT_MS;
  let timer: NodeJS.Timeout | undefined;

  /** The session is gone (ended, or a check failed): no claim names the key until it is open again. */
  const lost = (client: pg.Client) => {
    if (state.client === client) {
      state.held = false;
      state.client = undefined;
      if (!state.stopped) {
        log.warn({ holder: state.key }, "the presence session ended: claims name no holder until it is open again");
        reconnect();
      }
    }
    void client.end().catch(() => undefined);
  };
  const open = async (): Promise<void> => {
    const client = new pg.Client({
      connectionString: url,
      keepAlive: true,
      application_name: "storefront presence",
      query_timeout: QUERY_TIMEOUT_MS,
    });
    let ended = false;
    client.on("error", (err) => log.warn({ err: err.message }, "the presence session's connection failed"));
    // Listened to from the start: a session that ends while it is being opened is never taken for a held one.
    client.once("end", () => {
      ended = true;
      lost(client);
    });
    try {
      await client.connect();
      // The same key again where it is free (its claims stay this process's); else a new one, as a new holder.
      for (let tries = 0; ; tries++) {
        const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [HOLDER_LOCK_CLASS, state.key]);
        if (rows[0]?.ok) break;
        if (tries >= 5) throw new Error("no free claim holder key");
        state.key = newKey();
      }
      if (state.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      // A lock this session does not hold (a transaction pooler): the claims name no holder (their lease holds them).
      if (!(await holdsItsLock(client, state.key))) return refuse(client);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (ended) throw new Error("the presence session ended while it was being opened");
    state.client = client;
    state.held = true;
    retryMs = RECONNECT_MS;
  };
  const refuse = async (client: pg.Client) => {
    clearInterval(check);
    state.stopped = true;
    state.held = false;
    state.client = undefined;
    await client.end().catch(() => undefined);
    log.error(
      "the presence session does not keep its lock (DATABASE_URL goes through a transaction pooler?): set DATABASE_URL_UNPOOLED to a direct URL; meanwhile the claims of a server that ends hold their orders until they lapse",
    );
  };
  const check = setInterval(() => {
    const client = state.client;
    if (!client || state.stopped) return;
    holdsItsLock(client, state.key).then(
      (held) => (held ? undefined : refuse(client)),
      // A check that failed or timed out: the session is taken for gone, and opened again.
      () => lost(client),
    );
  }, CHECK_MS);
  check.unref();
  const reconnect = () => {
    timer = setTimeout(() => {
      timer = undefined;
      if (state.stopped) return;
      open().then(
        () => {
          if (state.held) log.info({ holder: state.key }, "the presence session is open again");
        },
        (err: unknown) => {
          log.warn({ err: err instanceof Error ? err.message : String(err) }, "the presence session could not be opened; trying again");
          retryMs = Math.min(retryMs * 2, MAX_RECONNECT_MS);
          reconnect();
        },
      );
    }, retryMs);
    timer.unref();
  };

  globalForPresence.__storefrontPresence = state;
  try {
    await open();
  } catch (err) {
    // The shop runs without: its claims hold until their lease lapses, as on a database it cannot reach this way.
    log.error({ err: err instanceof Error ? err.message : String(err) }, "the presence session could not be opened; trying again");
    reconnect();
  }
  return {
    get key() {
      return state.key;
    },
    async stop() {
      state.stopped = true;
      state.held = false;
      if (timer) clearTimeout(timer);
      clearInterval(check);
      const client = state.client;
      state.client = undefined;
      // Ending the session frees the lock: the process's remaining claims (if any) are a dead holder's from now on.
      await client?.end().catch(() => undefined);
      if (globalForPresence.__storefrontPresence === state) globalForPresence.__storefrontPresence = undefined;
    },
  };
}

/** A random holder key, a positive int4 (the lock's `objid`, an oid, reads it back unchanged). */
function newKey(): number {
  return randomInt(1, 2 ** 31 - 1);
}

async function holdsItsLock(client: pg.Client, key: number): Promise<boolean> {
  const { rows } = await client.query<{ held: boolean }>(HOLDS_ITS_LOCK, [HOLDER_LOCK_CLASS, key]);
  return rows[0]?.held === true;
}
