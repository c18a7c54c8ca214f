import { isAddress as isSolanaAddress } from "@solana/kit";
import {
  parseSIWxHeader,
  validateSIWxMessage,
  verifySIWxSignature,
  type EVMMessageVerifier,
  type SIWxPayload,
  type SIWxVerifyResult,
} from "@x402/extensions/sign-in-with-x";
import { getAddress, isAddress as isEvmAddress } from "viem";
import { getDb, type Db } from "@/lib/platform/db";
import { SIWX_CHALLENGE_TTL_MS, SIWX_CLOCK_SKEW_MS } from "./siwx-limits";
import { consumeNonce, nonceRefusal } from "./siwx-nonces";
import { parseSiwxOrigin } from "./siwx-origin";
import { isEvmChain, isSolanaChain, walletId, type Wallet } from "./wallet";

/**
 * Why a SIGN-IN-WITH-X header was refused. All but `verifier_error` are the client's doing; `verifier_error`
 * means the chain could not be asked about a smart-wallet signature. The /x402 API answers every one with a 402
 * that carries a fresh challenge and this reason. The nonce is consumed only on success.
 */
export type SiwxFailure =
  "malformed" | "wrong_origin" | "unsupported_chain" | "expired" | "not_yet_valid" | "unknown_nonce" | "replayed" | "bad_signature" | "verifier_error";

export type SiwxVerification = { ok: true; wallet: Wallet } | { ok: false; code: SiwxFailure; message: string };

export type VerifySiwxOptions = {
  /** The shop's public origin: the message's domain and URI must be this one's. */
  origin: string;
  /** For EVM chains, a verifier that also accepts smart-wallet signatures (EIP-1271/6492): viem `publicClient.verifyMessage`. Without one, EOA signatures only. */
  evmVerifier?: (chainId: string) => EVMMessageVerifier | undefined;
  /** When set, only these CAIP-2 chains are accepted. */
  chains?: string[];
  /**
   * Whether a sign-in that holds spends its nonce (the default). False checks everything, the nonce included, and
   * leaves it unspent: for a request that will not be served anyway, so that the client may send the same
   * signature again with what was missing (a payment).
   */
  consume?: boolean;
  /** The clock, for tests. */
  now?: Date;
};

// Bigger than any honest header (smart-wallet signatures included); bounds the work a junk header can cause.
const MAX_HEADER_LENGTH = 16 * 1024;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})+$/;

const fail = (code: SiwxFailure, message: string): SiwxVerification => ({ ok: false, code, message });

/**
 * Checks a SIGN-IN-WITH-X header and, when it holds, spends its nonce (unless `consume: false`) and returns the signing wallet.
 * Order matters: everything that can be refused cheaply is, and the nonce is consumed only after the
 * signature checked out, so that a forged header cannot burn a real user's challenge. Never throws for
 * client input; a database failure does throw.
 */
export async function verifySiwxHeader(header: string, opts: VerifySiwxOptions, db?: Db): Promise<SiwxVerification> {
  const origin = parseSiwxOrigin(opts.origin);
  const now = opts.now ?? new Date();

  if (typeof header !== "string" || header.length === 0 || header.length > MAX_HEADER_LENGTH) {
    return fail("malformed", "The SIGN-IN-WITH-X header is missing or too long");
  }
  let payload: SIWxPayload;
  try {
    payload = parseSIWxHeader(header.trim());
  } catch (err) {
    return fail("malformed", messageOf(err, "The SIGN-IN-WITH-X header is not base64 JSON of a sign-in message"));
  }

  const shape = checkShape(payload, opts.chains);
  if (shape) return shape;
  const binding = await checkOrigin(payload, origin);
  if (binding) return binding;
  const timing = checkTimes(payload, now);
  if (timing) return timing;

  const database = db ?? (await getDb());
  const dead = await nonceRefusal(database, payload.nonce, now);
  if (dead) return fail(dead.code, dead.message);

  const signed = await checkSignature(payload, opts.evmVerifier);
  if (!signed.ok) return signed;
  if (opts.consume === false) return signed;

  const lost = await consumeNonce(database, payload.nonce, walletId(signed.wallet), now);
  if (lost) return fail(lost.code, lost.message);
  return signed;
}

/** Field formats the package's schema leaves open, checked before anything parses them further. */
function checkShape(p: SIWxPayload, chains: string[] | undefined): SiwxVerification | null {
  if (p.version !== "1") return fail("malformed", `Unsupported sign-in message version ${JSON.stringify(p.version)}`);
  const evm = isEvmChain(p.chainId);
  if (!evm && !isSolanaChain(p.chainId)) return fail("unsupported_chain", `Cannot sign in with chain ${JSON.stringify(p.chainId)}`);
  if (chains && !chains.includes(p.chainId)) return fail("unsupported_chain", `This shop does not accept sign-in on ${p.chainId}`);
  // The package routes by chain prefix and ignores `type`; a mismatch means the client got something wrong.
  if (p.type !== (evm ? "eip191" : "ed25519")) return fail("malformed", `Signature type ${p.type} does not fit chain ${p.chainId}`);
  if (evm) {
    if (!isEvmAddress(p.address)) return fail("malformed", "The address is not an EVM address (or its EIP-55 checksum is wrong)");
    if (!HEX_BYTES.test(p.signature)) return fail("malformed", "The signature is not 0x-prefixed hex");
  } else if (!isSolanaAddress(p.address)) {
    return fail("malformed", "The address is not a Solana address");
  }
  for (const [name, value] of [
    ["issuedAt", p.issuedAt],
    ["expirationTime", p.expirationTime],
    ["notBefore", p.notBefore],
  ] as const) {
    if (value !== undefined && !(RFC3339.test(value) && Number.isFinite(Date.parse(value)))) {
      return fail("malformed", `${name} is not an RFC 3339 timestamp`);
    }
  }
  return null;
}

/**
 * Domain and URI binding through the package's validator. Its time checks read the wall clock and allow no
 * skew, so they are neutralised here and done by `checkTimes` against our (injectable) clock instead.
 */
async function checkOrigin(p: SIWxPayload, origin: URL): Promise<SiwxVerification | null> {
  const result = await validateSIWxMessage({ ...p, issuedAt: new Date().toISOString(), expirationTime: undefined, notBefore: undefined }, origin);
  if (result.isValid) return null;
  if (result.invalidReason === "invalid_siwx_domain_mismatch" || result.invalidReason === "invalid_siwx_uri_mismatch") {
    return fail("wrong_origin", result.invalidMessage);
  }
  return fail("malformed", result.invalidMessage);
}

/** The validator's rules (issuedAt at most 5 minutes old, not expired, notBefore passed), plus a little skew. */
function checkTimes(p: SIWxPayload, now: Date): SiwxVerification | null {
  const t = now.getTime();
  const issuedAt = Date.parse(p.issuedAt);
  if (issuedAt > t + SIWX_CLOCK_SKEW_MS) return fail("not_yet_valid", "issuedAt is in the future");
  if (t - issuedAt > SIWX_CHALLENGE_TTL_MS) return fail("expired", "The sign-in message is more than 5 minutes old: ask for a new challenge");
  if (p.expirationTime !== undefined && Date.parse(p.expirationTime) <= t) return fail("expired", "The sign-in message expired: ask for a new challenge");
  if (p.notBefore !== undefined && Date.parse(p.notBefore) > t + SIWX_CLOCK_SKEW_MS)
    return fail("not_yet_valid", "The sign-in message is not valid yet (notBefore)");
  return null;
}

async function checkSignature(
  p: SIWxPayload,
  evmVerifier: VerifySiwxOptions["evmVerifier"],
): Promise<{ ok: true; wallet: Wallet } | { ok: false; code: SiwxFailure; message: string }> {
  const evm = isEvmChain(p.chainId);
  let result: SIWxVerifyResult;
  try {
    result = await verifySIWxSignature(p, { evmVerifier: evm ? evmVerifier?.(p.chainId) : undefined });
  } catch (err) {
    // The package builds the EIP-4361 text with the SIWE library, whose parser throws (rather than
    // answering invalid) on fields the grammar refuses: a short nonce, a line break in the statement...
    return { ok: false, code: "malformed", message: messageOf(err, "The sign-in message cannot be formed from these fields") };
  }
  if (result.isValid) {
    // The package echoes the address as sent; ours are checksummed so that one wallet has one id.
    return { ok: true, wallet: { chainId: p.chainId, address: evm ? getAddress(result.payer) : result.payer } };
  }
  switch (result.invalidReason) {
    case "invalid_siwx_signature":
      return { ok: false, code: "bad_signature", message: "The signature does not match this address and message" };
    case "invalid_siwx_verifier_error":
      // The node's own words stay in the log side: they may name the RPC URL and its key.
      return { ok: false, code: "verifier_error", message: `The smart-wallet signature could not be checked on ${p.chainId}; try again` };
    case "invalid_siwx_chain_id":
    case "invalid_siwx_unsupported_chain":
      return { ok: false, code: "unsupported_chain", message: result.invalidMessage };
    default:
      return { ok: false, code: "malformed", message: result.invalidMessage };
  }
}

function messageOf(err: unknown, fallback: string): string {
  // The first line only: the SIWE parser appends a JSON dump of its internal state.
  const first = err instanceof Error ? err.message.split("\n")[0] : undefined;
  return first ? `${fallback} (${first.slice(0, 200)})` : fallback;
}
