/**
 * Identity of the local Solana chain. No Node imports here: the x402 client adapter that uses these
 * constants also runs in the browser.
 *
 * A Solana CAIP-2 id is "solana:" + the first 32 characters of the cluster's base58 genesis hash. Ours is
 * base58(sha256("x402-storefront-localnet")), so it is none of the real clusters' (mainnet
 * 5eykt4Us..., devnet EtWTRABZ..., testnet 4uhcVJyU...): a payment signed for the local chain names a
 * network that no real facilitator serves. (Solana transactions carry no chain id; their recent blockhash
 * is what ties them to a chain, and ours are never a real cluster's.)
 */
export const LOCALNET_GENESIS_HASH = "3TAoRRE2SL5vjkCTAqZGv1Qgp8J9nFE1vYVUVoq9reh5";

/** CAIP-2 id of the local Solana chain. */
export const LOCALNET_SOLANA_NETWORK = `solana:${LOCALNET_GENESIS_HASH.slice(0, 32)}` as const;

export const LOCALNET_SOLANA_NAME = "Solana (devnet)";

/** The USDC-like mint's decimals. */
export const LOCALNET_USDC_DECIMALS = 6;
