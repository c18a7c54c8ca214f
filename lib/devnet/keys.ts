import { randomBytes } from "node:crypto";
import { createKeyPairSignerFromPrivateKeyBytes, getBase58Decoder, getBase58Encoder, type KeyPairSigner } from "@solana/kit";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { dataDirSecret } from "@/lib/platform/config/data-dir-secret";

/**
 * The devnet's own wallets, generated once per install and kept under DATA_DIR: the shop's payTo wallets
 * and the facilitator's gas wallets. Never a well-known key.
 */
export type DevnetKeys = {
  evmPayTo: PrivateKeyAccount;
  evmFacilitator: PrivateKeyAccount;
  solanaPayTo: KeyPairSigner;
  solanaFacilitator: KeyPairSigner;
};

export async function solanaSignerFromSeed(seedBase58: string): Promise<KeyPairSigner> {
  return createKeyPairSignerFromPrivateKeyBytes(getBase58Encoder().encode(seedBase58));
}

/** The devnet wallets' secrets as kept under DATA_DIR: EVM private keys (hex) and Solana seeds (base58). */
export type DevnetSecrets = { evmPayTo: string; evmFacilitator: string; solanaPayTo: string; solanaFacilitator: string };

export function loadDevnetSecrets(dataDir: string): DevnetSecrets {
  const evm = (name: string) => dataDirSecret(dataDir, name, generatePrivateKey);
  const solana = (name: string) => dataDirSecret(dataDir, name, () => getBase58Decoder().decode(randomBytes(32)));
  return {
    evmPayTo: evm("devnet-evm-payto"),
    evmFacilitator: evm("devnet-evm-facilitator"),
    solanaPayTo: solana("devnet-solana-payto"),
    solanaFacilitator: solana("devnet-solana-facilitator"),
  };
}

export async function devnetKeysFromSecrets(s: DevnetSecrets): Promise<DevnetKeys> {
  return {
    evmPayTo: privateKeyToAccount(s.evmPayTo as `0x${string}`),
    evmFacilitator: privateKeyToAccount(s.evmFacilitator as `0x${string}`),
    solanaPayTo: await solanaSignerFromSeed(s.solanaPayTo),
    solanaFacilitator: await solanaSignerFromSeed(s.solanaFacilitator),
  };
}

export async function loadDevnetKeys(dataDir: string): Promise<DevnetKeys> {
  return devnetKeysFromSecrets(loadDevnetSecrets(dataDir));
}
