import { z } from "zod";
import type { Db } from "@/lib/platform/db";
import { parseAuthorization, recordCredentialUse, verifyCredential, type AccountHolder, type Credential, type Presented } from "@/lib/merchants";
import { DomainError } from "@/lib/platform/errors";
import type { RateLimiter } from "@/lib/platform/ratelimit";

/** The one answer to wrong credentials, whatever was wrong: the id, the secret, the token, or the kind of credential. */
export const INVALID_CREDENTIALS = "Those credentials are not valid.";

/** The sign-in form: a business key (API ID and secret) or a personal token. Lengths are far above real ones. */
export const signInForm = z.discriminatedUnion("mode", [
  z.object({
    mode: z.literal("key"),
    api_id: z.string().trim().min(1, "Enter your API ID.").max(200, INVALID_CREDENTIALS),
    api_secret: z.string().trim().min(1, "Enter your API secret.").max(500, INVALID_CREDENTIALS),
  }),
  z.object({
    mode: z.literal("token"),
    api_token: z.string().trim().min(1, "Enter your personal token.").max(700, INVALID_CREDENTIALS),
  }),
]);

export type SignInOutcome = { ok: true; merchant: AccountHolder; credential: Credential } | { ok: false; error: string; retryAfterSec?: number };

/**
 * Checks dashboard credentials with the API's own credential check (`verifyCredential`: hashed secrets compared in
 * constant time, revoked and expired credentials refused, suspended merchants refused) and records the use.
 * Attempts are counted per client IP and per credential id tried; a successful one is given back, so only failures
 * are limited (`DASHBOARD_SIGN_IN_LIMITS`). A merchant without API access may still sign in: the dashboard is not the API.
 */
export async function signIn(db: Db, form: unknown, ctx: { limiter: RateLimiter; ip?: string; now?: Date }): Promise<SignInOutcome> {
  const parsed = signInForm.safeParse(form);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? INVALID_CREDENTIALS };
  const presented = present(parsed.data);

  const subject = { ip: ctx.ip, credential: presented?.publicId };
  const decision = await ctx.limiter.consumeSignIn(subject);
  if (!decision.allowed) {
    const wait = decision.retryAfterSec ?? 60;
    return { ok: false, error: `Too many failed sign-ins. Try again in ${describeWait(wait)}.`, retryAfterSec: wait };
  }
  if (!presented) return { ok: false, error: INVALID_CREDENTIALS };

  try {
    const { merchant, credential } = await verifyCredential(db, presented, ctx.now);
    await ctx.limiter.forgiveSignIn(subject);
    await recordCredentialUse(db, credential, ctx.now);
    return { ok: true, merchant, credential };
  } catch (err) {
    if (!(err instanceof DomainError) || (err.code !== "unauthorized" && err.code !== "forbidden")) throw err;
    // `forbidden` comes only after the secret matched: it may say why (a suspended account).
    return { ok: false, error: err.code === "forbidden" ? `${err.message} Contact the shop's operator.` : INVALID_CREDENTIALS };
  }
}

/** The credential as the API would read it: a key pair as HTTP Basic sends it, a token as Bearer; null when unreadable. */
function present(form: z.infer<typeof signInForm>): Presented | null {
  if (form.mode === "key") return { scheme: "basic", publicId: form.api_id, secret: form.api_secret };
  try {
    return parseAuthorization(`Bearer ${form.api_token}`);
  } catch {
    return null;
  }
}

/** "45 seconds", "1 minute", "15 minutes". */
export function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
