export { startSolanaChain, type SolanaDevChain, type StartSolanaChainOptions } from "./start-solana-chain";
export { LOCALNET_GENESIS_HASH, LOCALNET_SOLANA_NAME, LOCALNET_SOLANA_NETWORK, LOCALNET_USDC_DECIMALS } from "./network";
export { LocalnetExactSvmServerScheme, localnetExactSvmClient, localnetFacilitatorSvmSigner, type LocalSolanaChainInfo } from "./x402";
