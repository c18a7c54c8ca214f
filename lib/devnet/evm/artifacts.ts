import type { Abi, Hex } from "viem";
import artifacts from "@/lib/devnet/contracts/artifacts.json";

// Compiled by scripts/compile-contracts.ts from lib/devnet/contracts/*.sol (committed; never compiled at run time).

/** DevUSDC: a USDC-like EIP-3009 token (6 decimals, EIP-712 domain "USD Coin" / "2"). */
export const DEV_USDC_ABI = artifacts.DevUSDC.abi as Abi;
export const DEV_USDC_RUNTIME_CODE = artifacts.DevUSDC.deployedBytecode as Hex;

/** The canonical Multicall3 address, the same on every public EVM chain. */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;
export const MULTICALL3_ABI = artifacts.Multicall3.abi as Abi;
export const MULTICALL3_RUNTIME_CODE = artifacts.Multicall3.deployedBytecode as Hex;

/**
 * DevUSDC keeps `balanceOf` (mapping(address => uint256)) in storage slot 0: the balance of A lives at
 * keccak256(abi.encode(A, uint256(0))), so balances can also be seeded with `anvil_setStorageAt`.
 */
export const DEV_USDC_BALANCES_SLOT = 0n;

/** The EIP-712 domain and token facts of DevUSDC, as x402 requirements carry them in `extra`. */
export const DEV_USDC_TOKEN = { name: "USD Coin", version: "2", decimals: 6 } as const;

/**
 * TestSmartWallet (tests only): an EIP-1271 contract wallet whose `isValidSignature` accepts its owner's ECDSA
 * signatures. No constructor: place it with `anvil_setCode`, then set the owner in storage slot
 * TEST_SMART_WALLET_OWNER_SLOT with `anvil_setStorageAt`.
 */
export const TEST_SMART_WALLET_ABI = artifacts.TestSmartWallet.abi as Abi;
export const TEST_SMART_WALLET_RUNTIME_CODE = artifacts.TestSmartWallet.deployedBytecode as Hex;
export const TEST_SMART_WALLET_OWNER_SLOT = 0n;
