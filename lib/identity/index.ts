// Wallet identities: SIWX sign-in, its nonces, session tokens. What other features import from it.
export { parseWalletId, sameWallet, walletId, walletOwnerKey, isEvmChain, isSolanaChain, type Wallet } from "./wallet";
export { createSiwxChallenge, DEFAULT_SIWX_STATEMENT, type SiwxChallengeExtensions, type SiwxChallengeOptions } from "./siwx-challenge";
export { verifySiwxHeader, type SiwxFailure, type SiwxVerification, type VerifySiwxOptions } from "./verify-siwx";
export { SIWX_CHALLENGE_TTL_MS } from "./siwx-limits";
export { issueSessionToken, verifySessionToken } from "./session-token";
export { sessionKey } from "./session-key";
export { deleteStaleNonces } from "./nonce-cleanup";
export { SIGN_IN_WITH_X, type EVMMessageVerifier } from "@x402/extensions/sign-in-with-x";
export { signToken, verifyToken, type TokenKind } from "./jwt";
export { sessionKeyFrom } from "./session-key";
