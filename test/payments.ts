import { generateKeyPairSigner } from "@solana/kit";
import type { LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { EvmNetwork, PaymentNetwork, SolanaNetwork } from "@/lib/platform/networks";
import { inProcessFacilitator } from "@/lib/payments/facilitator";
import { paymentsWith, senderSync, type Payments } from "@/lib/payments/payments";

/**
 * Makes a payment setup the process's (what `getPayments()` returns), so that route handlers can be called in tests over
 * networks of the test's own (built with `paymentsWith`). Returns a function that puts the previous one back. For tests.
 */
export function useAsProcessPayments(payments: Payments): () => void {
  const g = globalThis as typeof globalThis & { __storefrontPayments?: Promise<Payments> };
  const previous = g.__storefrontPayments;
  g.__storefrontPayments = Promise.resolve(payments);
  return () => {
    g.__storefrontPayments = previous;
  };
}

/** A Solana network with no chain behind it (its RPC refuses connections): for sign-ins and offers, not payments. */
export async function offlineSolanaNetwork(name: string): Promise<SolanaNetwork> {
  return {
    key: "solana",
    kind: "solana",
    network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
    name,
    rpcUrl: "http://127.0.0.1:9",
    payTo: (await generateKeyPairSigner()).address,
    usdc: { mint: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU", decimals: 6 },
  };
}

/**
 * The process's payments over `networks`, with the in-process facilitator and fresh gas wallets (or `gas`, funded by
 * the test): route handlers then offer and settle on these networks, and with `gas` the invoices of USDC methods get
 * addresses of their own, flushed by it. Returns what puts the previous payments back.
 */
export async function installInProcessPayments(networks: PaymentNetwork[], gas?: LocalAccount, addressOnly: EvmNetwork[] = []): Promise<() => void> {
  const evm = gas ?? privateKeyToAccount(generatePrivateKey());
  const facilitator = inProcessFacilitator(networks, { evm: [evm], solana: await generateKeyPairSigner() }, senderSync);
  return paymentsWith({ networks, addressOnly, facilitator, devnet: false, inProcess: true, flushAccounts: gas ? [gas] : [] }).then(useAsProcessPayments);
}
