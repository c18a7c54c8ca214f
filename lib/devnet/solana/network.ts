/**
 * Identity of the local Solana chain. No Node imports here: the x402 client adapter that uses these
 * constants also runs in the browser.
 *
 * The local chain's own genesis hash is base58(sha256("x402-storefront-localnet")), none of the real
 * clusters'. Its CAIP-2 id, though, is the Solana devnet cluster's: the official x402 Solana client
 * (@x402/svm 2.27) builds payments only for the three known cluster ids (taking a custom RPC URL for them),
 * and buyers must be able to pay the devnet with the packages unchanged. That costs no safety: a Solana
 * transaction names no chain id; its recent blockhash ties it to a chain, and ours are never a real
 * cluster's, so a payment signed for the local chain is worthless on the public devnet.
 */
export const LOCALNET_GENESIS_HASH = "3TAoRRE2SL5vjkCTAqZGv1Qgp8J9nFE1vYVUVoq9reh5";

/** CAIP-2 id the local Solana chain is offered under: the devnet cluster's (see above). */
export const LOCALNET_SOLANA_NETWORK = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" as const;

export const LOCALNET_SOLANA_NAME = "Solana (devnet)";

/** The USDC-like mint's decimals. */
export const LOCALNET_USDC_DECIMALS = 6;
