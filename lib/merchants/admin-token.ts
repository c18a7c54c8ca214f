import { randomBytes, timingSafeEqual } from "node:crypto";
import { config, type Config } from "@/lib/platform/config";
import { dataDirSecret } from "@/lib/platform/config/data-dir-secret";

/**
 * The operator's admin token: ADMIN_TOKEN, else in devnet mode one generated once under DATA_DIR (printed at start),
 * else none: the admin API then refuses every call until ADMIN_TOKEN is set.
 */
let cached: { token: string | undefined } | undefined;

/** The process's admin token, read once (not a file read per admin request). */
export function processAdminToken(): string | undefined {
  cached ??= { token: adminToken() };
  return cached.token;
}

export function adminToken(c: Pick<Config, "adminToken" | "dataDir" | "networkMode"> = config()): string | undefined {
  if (c.adminToken) return c.adminToken;
  if (c.networkMode !== "devnet") return undefined;
  return dataDirSecret(c.dataDir, "admin-token", () => `adm_${randomBytes(32).toString("base64url")}`);
}

/** Whether an Authorization header carries the admin token (`Bearer <token>`), compared in constant time. */
export function isAdmin(header: string | null, token = processAdminToken()): boolean {
  if (!token || !header?.startsWith("Bearer ")) return false;
  const given = Buffer.from(header.slice("Bearer ".length).trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
