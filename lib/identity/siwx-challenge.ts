import { randomBytes } from "node:crypto";
import { SIGN_IN_WITH_X, declareSIWxExtension, type SIWxExtension, type SIWxExtensionInfo } from "@x402/extensions/sign-in-with-x";
import { getDb, type Db } from "@/lib/platform/db";
import { storeNonce } from "./siwx-nonces";
import { SIWX_CHALLENGE_TTL_MS } from "./siwx-limits";
import { parseSiwxOrigin } from "./siwx-origin";
import { isEvmChain, isSolanaChain } from "./wallet";

/** The `extensions` member of a 402 body / PAYMENT-REQUIRED that asks the client to sign in. */
export type SiwxChallengeExtensions = { [SIGN_IN_WITH_X]: SIWxExtension };

export type SiwxChallengeOptions = {
  /** The shop's public origin, e.g. "https://shop.example": the signed message is bound to it. */
  origin: string;
  /** The URL the client asked for (absolute or a path); it is signed as the message's URI. */
  resourceUrl: string;
  /** CAIP-2 ids the client may sign with: eip155 ones get "eip191", Solana ones "ed25519". */
  chains: string[];
  statement?: string;
  /** The clock, for tests. */
  now?: Date;
};

export const DEFAULT_SIWX_STATEMENT = "Sign in to the storefront with your wallet.";

// EIP-4361's ABNF for the statement: printable ASCII without " % < > \ ^ ` { | } and without line breaks.
// The SIWE parser that both the client helper and the verifier run throws on anything else.
const SIWE_STATEMENT = /^[A-Za-z0-9 !#$&-;=?@[\]_~]+$/;

/**
 * A fresh sign-in challenge: a nonce of ours, stored in `siwx_nonces` for 5 minutes, inside the extension
 * object the x402 client helpers sign. Throws only on a programming error (bad origin, chain or statement).
 */
export async function createSiwxChallenge(opts: SiwxChallengeOptions, db?: Db): Promise<SiwxChallengeExtensions> {
  const origin = parseSiwxOrigin(opts.origin);
  if (opts.chains.length === 0) throw new Error("createSiwxChallenge needs at least one chain");
  for (const chain of opts.chains) {
    if (!isEvmChain(chain) && !isSolanaChain(chain)) throw new Error(`Unsupported SIWX chain ${chain}: expected eip155:<n> or solana:<ref>`);
  }
  const statement = opts.statement ?? DEFAULT_SIWX_STATEMENT;
  if (!SIWE_STATEMENT.test(statement)) throw new Error(`SIWX statement has characters EIP-4361 forbids: ${JSON.stringify(statement)}`);

  // The package's own server extension rebases the resource onto the configured origin the same way: the
  // validator requires the URI's origin to equal the shop's, whatever host the request reached internally.
  const resource = new URL(opts.resourceUrl, origin);
  const uri = new URL(resource.pathname + resource.search, origin).toString();

  const now = opts.now ?? new Date();
  const expiresAt = new Date(now.getTime() + SIWX_CHALLENGE_TTL_MS);
  // 128 random bits as hex: alphanumeric and >= 8 characters, as the SIWE grammar requires of a nonce.
  const nonce = randomBytes(16).toString("hex");

  const database = db ?? (await getDb());
  await storeNonce(database, nonce, now, expiresAt);

  // declareSIWxExtension gives supportedChains (type per chain) and the payload schema; it leaves domain,
  // uri, nonce and times to the package's own server extension, which we do not use (its nonces are not stored).
  const declared = declareSIWxExtension({ network: opts.chains, statement, version: "1" })[SIGN_IN_WITH_X];
  if (!declared) throw new Error("declareSIWxExtension returned no sign-in-with-x declaration");
  const info: SIWxExtensionInfo = {
    domain: origin.host,
    uri,
    version: "1",
    nonce,
    issuedAt: now.toISOString(),
    expirationTime: expiresAt.toISOString(),
    statement,
    resources: [uri],
  };
  // Rebuilt rather than spread: the declaration also carries an internal `_options` member that clients must not see.
  return { [SIGN_IN_WITH_X]: { info, supportedChains: declared.supportedChains, schema: declared.schema } };
}
