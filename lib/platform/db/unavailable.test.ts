import net from "node:net";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirLockedError } from "./lock";
import { isDatabaseUnavailable } from "./unavailable";
// A port nothing listens on: a server that is down.
import { freePort } from "@/scripts/shop-server";

/** A loopback port that takes connections and never answers: a server that hangs (or a pool that has none to give). */
const held = new Set<net.Socket>();
const silent = net.createServer((socket) => void held.add(socket));
const silentPort = new Promise<number>((resolve) => silent.listen(0, "127.0.0.1", () => resolve((silent.address() as net.AddressInfo).port)));
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

/** What a query through drizzle and a node-postgres pool throws with that pool. */
async function queryError(pool: pg.Pool): Promise<unknown> {
  try {
    return await drizzle({ client: pool })
      .execute(sql`SELECT 1`)
      .then(() => undefined);
  } catch (err) {
    return err;
  } finally {
    await pool.end();
  }
}

/** An error as node-postgres gives a server's refusal: its SQLSTATE in `code`. */
const serverError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: "FATAL" });

describe("isDatabaseUnavailable", () => {
  it("holds for a query to a server that is down (drizzle's error around the driver's refused connection)", async () => {
    const err = await queryError(new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/postgres` }));
    expect(err).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it("holds for a pool whose wait for a connection timed out", async () => {
    const pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:${await silentPort}/postgres`, connectionTimeoutMillis: 200 });
    const err = await queryError(pool);
    expect(String((err as Error).cause ?? err)).toMatch(/timeout/);
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it("holds for a server restarting or failing over, a cut connection, and the embedded database busy or closing", () => {
    for (const [code, message] of [
      ["57P01", "terminating connection due to administrator command"],
      ["57P02", "terminating connection due to crash of another server process"],
      ["57P03", "the database system is starting up"],
      ["57P03", "the database system is shutting down"],
      ["08006", "connection failure"],
      ["08P01", "protocol violation"],
      ["53300", "sorry, too many clients already"],
      ["ECONNRESET", "read ECONNRESET"],
    ] as const) {
      expect(isDatabaseUnavailable(serverError(code, message)), code).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("PGlite is closed"))).toBe(true);
    expect(isDatabaseUnavailable(new DataDirLockedError("/data/pglite", { pid: 1, role: "admin", since: "2026-01-01T00:00:00Z" }))).toBe(true);
    // Deeper down: an open that wrapped the refused connect of one address of several.
    const refused = new AggregateError([Object.assign(new Error("connect ECONNREFUSED ::1:5432"), { code: "ECONNREFUSED" })], "");
    expect(isDatabaseUnavailable(new Error("Cannot connect to the PostgreSQL server in DATABASE_URL", { cause: refused }))).toBe(true);
  });

  it("does not hold for a query that is wrong, a refusal of the data, or any other failure", () => {
    expect(isDatabaseUnavailable(serverError("42601", "syntax error at or near"))).toBe(false);
    expect(isDatabaseUnavailable(serverError("23505", "duplicate key value violates unique constraint"))).toBe(false);
    expect(isDatabaseUnavailable(serverError("40001", "could not serialize access"))).toBe(false);
    expect(isDatabaseUnavailable(new Error("Invoice inv_1 changed while its row was locked"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
