import { isAddress as isSolanaAddress } from "@solana/kit";
import { getAddress, isAddress as isEvmAddress } from "viem";

/** A buyer's identity: a wallet on one chain. */
export type Wallet = {
  /** CAIP-2 chain id, e.g. "eip155:8453" or "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp". */
  chainId: string;
  /** EIP-55 checksummed for EVM, base58 for Solana. */
  address: string;
};

// CAIP-2: eip155 references are decimal chain ids; Solana's is (a prefix of) the genesis hash, at most 32 chars.
const EVM_CHAIN = /^eip155:[0-9]{1,32}$/;
const SOLANA_CHAIN = /^solana:[-_a-zA-Z0-9]{1,32}$/;

export function isEvmChain(chainId: string): boolean {
  return EVM_CHAIN.test(chainId);
}

export function isSolanaChain(chainId: string): boolean {
  return SOLANA_CHAIN.test(chainId);
}

/** The CAIP-10 account id `<chainId>:<address>`; EVM addresses are written checksummed so that one wallet has one id per chain. */
export function walletId(w: Wallet): string {
  const address = isEvmChain(w.chainId) && isEvmAddress(w.address, { strict: false }) ? getAddress(w.address) : w.address;
  return `${w.chainId}:${address}`;
}

/** Reads a CAIP-10 account id of an EVM or Solana wallet; null for anything else (never throws: ids come from tokens and URLs). */
export function parseWalletId(s: string): Wallet | null {
  if (typeof s !== "string" || s.length > 200) return null;
  const parts = s.split(":");
  if (parts.length !== 3) return null;
  const [namespace, reference, address] = parts as [string, string, string];
  const chainId = `${namespace}:${reference}`;
  if (isEvmChain(chainId)) {
    // viem's strict check takes an all-lowercase address but refuses a mixed-case one with a wrong checksum.
    if (!isEvmAddress(address)) return null;
    return { chainId, address: getAddress(address) };
  }
  if (isSolanaChain(chainId)) return isSolanaAddress(address) ? { chainId, address } : null;
  return null;
}

/**
 * The key a wallet's records are filed under, ignoring the chain where the same key signs on every chain of
 * its family: one EVM private key is one wallet on every eip155 chain, one ed25519 key one wallet on every
 * Solana cluster. Null for a wallet of another family.
 */
export function walletOwnerKey(w: Wallet): string | null {
  if (isEvmChain(w.chainId)) return isEvmAddress(w.address, { strict: false }) ? `eip155:${getAddress(w.address)}` : null;
  if (isSolanaChain(w.chainId)) return `solana:${w.address}`;
  return null;
}

/** Whether two wallets are the same signer: EVM addresses compare case-insensitively across chains, Solana ones exactly. */
export function sameWallet(a: Wallet, b: Wallet): boolean {
  if (isEvmChain(a.chainId) && isEvmChain(b.chainId)) return a.address.toLowerCase() === b.address.toLowerCase();
  if (isSolanaChain(a.chainId) && isSolanaChain(b.chainId)) return a.address === b.address;
  return false;
}
