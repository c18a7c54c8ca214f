/**
 * How long a sign-in challenge stays good: its nonce expires this long after issue, and a signed message
 * whose issuedAt is older is refused (the same 5 minutes as @x402/extensions' validator default).
 */
export const SIWX_CHALLENGE_TTL_MS = 5 * 60 * 1000;

/**
 * How far in the future a message's issuedAt may be. We stamp issuedAt ourselves, but another server of the
 * same shop may verify the answer, and the package's validator tolerates no skew at all.
 */
export const SIWX_CLOCK_SKEW_MS = 30 * 1000;
