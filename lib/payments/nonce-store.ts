import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { signerNonces } from "@/lib/platform/db/schema";
import type { Database } from "@/lib/platform/db";
import { withKeyLock } from "@/lib/platform/db/key-lock";
import type { NonceStore, SenderSync } from "./evm-signer";

/** The sending wallets' next nonces in the database, shared by every server (used only under the wallet's lock). */
export function databaseNonceStore(db: () => Promise<Db>): NonceStore {
  return {
    async get(key) {
      const [row] = await (await db()).select().from(signerNonces).where(eq(signerNonces.key, key));
      return row ? { next: row.nextNonce, updatedAt: row.updatedAt } : undefined;
    },
    async set(key, next) {
      const d = await db();
      if (next === undefined) {
        await d.delete(signerNonces).where(eq(signerNonces.key, key));
        return;
      }
      await d
        .insert(signerNonces)
        .values({ key, nextNonce: next, updatedAt: new Date() })
        .onConflictDoUpdate({ target: signerNonces.key, set: { nextNonce: next, updatedAt: sql`now()` } });
    },
  };
}

/** The lock and nonces of sending wallets on one database (several servers sharing it share them). */
export function databaseSenderSync(database: () => Promise<Database>): SenderSync {
  return {
    lock: async (key, work) => withKeyLock(await database(), key, work),
    nonces: databaseNonceStore(async () => (await database()).db),
  };
}
