/**
 * The local chains that stand in for the real networks in devnet mode. Their chain ids are not any public
 * chain's, so that a signature made for the devnet is worthless on a real chain.
 */
export const DEVNET_EVM_CHAINS = [
  { key: "base", name: "Base (devnet)", chainId: 84_530_402 },
  { key: "arbitrum", name: "Arbitrum (devnet)", chainId: 421_610_402 },
  { key: "polygon", name: "Polygon (devnet)", chainId: 1_370_402 },
] as const;

/**
 * The local chain standing in for Ethereum, where invoices are paid by a transfer to their own address only (no x402
 * there): ether (`ethereum`) and USDC (`usdc_erc20`).
 */
export const DEVNET_ADDRESS_CHAINS = [{ key: "ethereum", name: "Ethereum (devnet)", chainId: 1_010_402 }] as const;

/** Where the USDC-like token sits on every devnet EVM chain. */
export const DEVNET_USDC_ADDRESS = "0x4020000000000000000000000000000000005dc0" as const;

/** The most a single faucet call hands out, in USDC. */
export const FAUCET_MAX_USDC = 10_000;
