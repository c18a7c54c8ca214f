import { getAddressEncoder, getTransactionDecoder, getTransactionEncoder, partiallySignTransaction, signBytes, type KeyPairSigner } from "@solana/kit";
import {
  SolanaSignMessage,
  SolanaSignTransaction,
  type SolanaSignMessageFeature,
  type SolanaSignMessageMethod,
  type SolanaSignTransactionFeature,
  type SolanaSignTransactionMethod,
} from "@solana/wallet-standard-features";
import {
  ReadonlyWalletAccount,
  registerWallet,
  StandardConnect,
  StandardDisconnect,
  StandardEvents,
  type IdentifierString,
  type StandardConnectFeature,
  type StandardConnectMethod,
  type StandardDisconnectFeature,
  type StandardEventsFeature,
  type StandardEventsListeners,
  type StandardEventsOnMethod,
  type Wallet,
  type WalletAccount,
} from "@wallet-standard/core";
import type { WalletSetup } from "@/lib/payments/wallet-setup";
import { solanaBurnerSigner, type KeyStore } from "./burner-keys";
import { BURNER_WALLET_ICON, BURNER_WALLET_NAME } from "./burner-wallet-info";

// The devnet's Solana chain runs locally (the wallet adapter names a 127.0.0.1 endpoint "solana:localnet"), while
// x402 offers it under the devnet cluster's id (see lib/devnet/solana/network.ts): the burner answers to both.
const CHAINS = ["solana:localnet", "solana:devnet"] as const satisfies readonly IdentifierString[];

type Features = StandardConnectFeature & StandardDisconnectFeature & StandardEventsFeature & SolanaSignTransactionFeature & SolanaSignMessageFeature;

/**
 * The devnet burner as a Wallet Standard wallet: the Solana wallet adapter lists it like an installed extension. It
 * signs with its Ed25519 key through WebCrypto (@solana/kit), without asking: it is a devnet wallet holding test
 * money. Transactions are signed partially (the x402 facilitator adds the fee payer's signature and submits them);
 * one that does not need the burner's signature is refused.
 */
export class SolanaBurnerWallet implements Wallet {
  readonly version = "1.0.0" as const;
  readonly name = BURNER_WALLET_NAME;
  readonly icon = BURNER_WALLET_ICON;
  readonly chains = CHAINS;
  readonly features: Features;
  readonly #store: () => KeyStore;
  readonly #listeners = new Set<StandardEventsListeners["change"]>();
  #signer: KeyPairSigner | null = null;
  #account: WalletAccount | null = null;

  constructor(store: () => KeyStore = () => window.localStorage) {
    this.#store = store;
    this.features = {
      [StandardConnect]: { version: "1.0.0", connect: this.#connect },
      [StandardDisconnect]: { version: "1.0.0", disconnect: this.#disconnect },
      [StandardEvents]: { version: "1.0.0", on: this.#on },
      [SolanaSignTransaction]: { version: "1.0.0", supportedTransactionVersions: ["legacy", 0], signTransaction: this.#signTransaction },
      [SolanaSignMessage]: { version: "1.0.0", signMessage: this.#signMessage },
    };
  }

  get accounts(): readonly WalletAccount[] {
    return this.#account ? [this.#account] : [];
  }

  // A silent connect (the adapter's auto-connect on a later visit) uses the stored key but never makes one.
  #connect: StandardConnectMethod = async (input) => {
    if (!this.#account) {
      const signer = await solanaBurnerSigner(this.#store(), !input?.silent);
      if (signer) {
        this.#signer = signer;
        this.#account = new ReadonlyWalletAccount({
          address: signer.address,
          publicKey: new Uint8Array(getAddressEncoder().encode(signer.address)),
          chains: CHAINS,
          features: [SolanaSignTransaction, SolanaSignMessage],
        });
        this.#emit();
      }
    }
    return { accounts: this.accounts };
  };

  #disconnect = async () => {
    this.#account = null;
    this.#signer = null;
    this.#emit();
  };

  #on: StandardEventsOnMethod = (event, listener) => {
    if (event !== "change") return () => undefined;
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  #emit() {
    for (const listener of this.#listeners) listener({ accounts: this.accounts });
  }

  #signerFor(account: WalletAccount): KeyPairSigner {
    if (!this.#signer || account.address !== this.#signer.address) throw new Error(`The burner wallet is not connected as ${account.address}.`);
    return this.#signer;
  }

  #signTransaction: SolanaSignTransactionMethod = async (...inputs) => {
    const decoder = getTransactionDecoder();
    const encoder = getTransactionEncoder();
    const outputs = [];
    for (const { account, transaction } of inputs) {
      const signer = this.#signerFor(account);
      const signed = await partiallySignTransaction([signer.keyPair], decoder.decode(transaction));
      outputs.push({ signedTransaction: new Uint8Array(encoder.encode(signed)) });
    }
    return outputs;
  };

  #signMessage: SolanaSignMessageMethod = async (...inputs) => {
    const outputs = [];
    for (const { account, message } of inputs) {
      const signature = await signBytes(this.#signerFor(account).keyPair.privateKey, message);
      outputs.push({ signedMessage: message, signature: new Uint8Array(signature), signatureType: "ed25519" as const });
    }
    return outputs;
  };
}

let registered: SolanaBurnerWallet | null = null;

/**
 * Offers the Solana burner to the page's wallet apps (the Wallet Standard's register-wallet event, which the Solana
 * wallet adapter listens for), once per page, and only in devnet mode. Returns the wallet it registered, if any.
 */
export function registerSolanaBurner(setup: Pick<WalletSetup, "mode">): SolanaBurnerWallet | null {
  if (setup.mode !== "devnet") return null;
  if (!registered) {
    registered = new SolanaBurnerWallet();
    registerWallet(registered);
  }
  return registered;
}
