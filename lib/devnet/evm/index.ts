// Local EVM chains (anvil) for development and tests: DevUSDC (EIP-3009) and Multicall3 in place at start.
export { startEvmChain, resolveAnvilBinary, type EvmDevChain, type StartEvmChainOptions } from "./start-evm-chain";
export { mintUsdc, usdcBalance, FAUCET_ADDRESS } from "./usdc";
export {
  DEV_USDC_ABI,
  DEV_USDC_BALANCES_SLOT,
  DEV_USDC_RUNTIME_CODE,
  DEV_USDC_TOKEN,
  MULTICALL3_ABI,
  MULTICALL3_ADDRESS,
  MULTICALL3_RUNTIME_CODE,
} from "./artifacts";
