import { randomBytes } from "node:crypto";
import pg from "pg";

/** Creates a new, empty database on a PostgreSQL server (`prefix` and a random suffix) and returns its URL. */
export async function createDatabase(serverUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
