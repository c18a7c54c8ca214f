import { randomBytes } from "node:crypto";
import { createKeyPairSignerFromPrivateKeyBytes, getBase58Decoder, getBase58Encoder, type KeyPairSigner } from "@solana/kit";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { dataDirSecret } from "@/lib/config/data-dir-secret";

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

export async function loadDevnetKeys(dataDir: string): Promise<DevnetKeys> {
  const evm = (name: string) => privateKeyToAccount(dataDirSecret(dataDir, name, generatePrivateKey) as `0x${string}`);
  const solana = (name: string) =>
    solanaSignerFromSeed(dataDirSecret(dataDir, name, () => getBase58Decoder().decode(randomBytes(32))));
  return {
    evmPayTo: evm("devnet-evm-payto"),
    evmFacilitator: evm("devnet-evm-facilitator"),
    solanaPayTo: await solana("devnet-solana-payto"),
    solanaFacilitator: await solana("devnet-solana-facilitator"),
  };
}
