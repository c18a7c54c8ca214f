import {
  createKeyPairSignerFromBytes,
  createKeyPairSignerFromPrivateKeyBytes,
  getAddressEncoder,
  getBase58Decoder,
  getBase58Encoder,
  type KeyPairSigner,
} from "@solana/kit";
import { isHex, size, type Hex } from "viem";
import { generatePrivateKey } from "viem/accounts";

/**
 * The devnet burner wallets' keys, kept in the browser's localStorage (per origin): made on the first connect, the
 * same on every later visit, so the test USDC a shopper minted stays theirs. Any script on the page can read them;
 * that is acceptable only because they exist in devnet mode, on local chains whose chain ids are no real chain's.
 *
 * Both are stored in the form wallets import: a 0x hex private key (MetaMask) and a base58 64-byte secret key
 * (Phantom, Solflare, `solana-keygen`).
 */
export type KeyStore = Pick<Storage, "getItem" | "setItem">;

const EVM_KEY = "storefront.burner.evm";
const SOLANA_KEY = "storefront.burner.solana";

/** The EVM burner's private key; made and stored when `create` is set and there is none yet. */
export function evmBurnerKey(store: KeyStore, create: true): Hex;
export function evmBurnerKey(store: KeyStore, create: boolean): Hex | null;
export function evmBurnerKey(store: KeyStore, create: boolean): Hex | null {
  const stored = store.getItem(EVM_KEY);
  if (stored && isHex(stored) && size(stored) === 32) return stored;
  if (!create) return null;
  const key = generatePrivateKey();
  store.setItem(EVM_KEY, key);
  return key;
}

/** The Solana burner's signer (its private key not extractable); made and stored when `create` is set and there is none. */
export async function solanaBurnerSigner(store: KeyStore, create: true): Promise<KeyPairSigner>;
export async function solanaBurnerSigner(store: KeyStore, create: boolean): Promise<KeyPairSigner | null>;
export async function solanaBurnerSigner(store: KeyStore, create: boolean): Promise<KeyPairSigner | null> {
  const stored = store.getItem(SOLANA_KEY);
  if (stored) {
    try {
      // Checks that the public half belongs to the private half.
      return await createKeyPairSignerFromBytes(getBase58Encoder().encode(stored));
    } catch {
      // Not a key pair (edited by hand?): replaced below when asked to create one.
    }
  }
  if (!create) return null;
  // An Ed25519 private key is 32 random bytes (RFC 8032 §5.1.5).
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const signer = await createKeyPairSignerFromPrivateKeyBytes(seed);
  const secretKey = new Uint8Array(64);
  secretKey.set(seed);
  secretKey.set(getAddressEncoder().encode(signer.address), 32);
  store.setItem(SOLANA_KEY, getBase58Decoder().decode(secretKey));
  return signer;
}
