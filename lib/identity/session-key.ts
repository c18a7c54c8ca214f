import { randomBytes } from "node:crypto";
import { config, type Config } from "@/lib/platform/config";
import { dataDirSecret } from "@/lib/platform/config/data-dir-secret";

let cached: Uint8Array | undefined;

/** The HMAC key of session tokens: SESSION_SECRET, else a secret generated once under DATA_DIR. Read once per process. */
export function sessionKey(): Uint8Array {
  cached ??= sessionKeyFrom(config());
  return cached;
}

/** The key for a given configuration; `sessionKey()` is this for the process's config. */
export function sessionKeyFrom(c: Pick<Config, "sessionSecret" | "dataDir">): Uint8Array {
  // 32 random bytes: the strength HS256 wants. Kept as text so that an operator can copy it into SESSION_SECRET.
  const secret = c.sessionSecret ?? dataDirSecret(c.dataDir, "session-secret", () => randomBytes(32).toString("base64url"));
  return new TextEncoder().encode(secret);
}
