import { createSolanaRpc, getBase58Encoder, createKeyPairSignerFromBytes, type KeyPairSigner } from "@solana/kit";
import type { FacilitatorClient } from "@x402/core/server";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { x402Facilitator } from "@x402/core/facilitator";
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from "@x402/evm/exact/facilitator";
import { ExactSvmScheme as ExactSvmFacilitatorScheme } from "@x402/svm/exact/facilitator";
import { toFacilitatorSvmSigner } from "@x402/svm";
import type { LocalAccount } from "viem";
import { managedEvmSigner, type SenderSync } from "./evm-signer";
import type { PaymentNetwork, SolanaNetwork } from "@/lib/networks";

/** How long settlement waits for an EVM receipt before answering "pending" (the chain is asked again later). */
const CONFIRMATION_TIMEOUT_MS = 30_000;

export type GasWallets = {
  /** The EVM gas wallets (one or more: each settlement goes to the least busy). */
  evm: readonly LocalAccount[];
  solana: KeyPairSigner;
};

/**
 * The x402 facilitator run inside this process: it verifies payments and settles them on chain with our own
 * gas wallets, one scheme instance per network. EVM transactions take their nonces under `sync` (see evm-signer.ts).
 */
export function inProcessFacilitator(
  networks: PaymentNetwork[],
  gas: GasWallets,
  sync: SenderSync,
  opts: { confirmationTimeoutMs?: number } = {},
): FacilitatorClient {
  const facilitator = new x402Facilitator();
  for (const n of networks) {
    if (n.kind === "evm") {
      facilitator.register(
        n.network,
        new ExactEvmFacilitatorScheme(managedEvmSigner(n, gas.evm, sync, { confirmationTimeoutMs: opts.confirmationTimeoutMs ?? CONFIRMATION_TIMEOUT_MS })),
      );
    } else {
      facilitator.register(n.network, new ExactSvmFacilitatorScheme(solanaSigner(n, gas.solana)));
    }
  }
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported(),
  } as FacilitatorClient;
}

function solanaSigner(n: SolanaNetwork, signer: KeyPairSigner) {
  // The per-network map form: a bare RPC object would be taken for a config object.
  return toFacilitatorSvmSigner(signer, { [n.network]: createSolanaRpc(n.rpcUrl) } as Parameters<typeof toFacilitatorSvmSigner>[1]);
}

export function remoteFacilitator(url: string): FacilitatorClient {
  return new HTTPFacilitatorClient({ url });
}

export async function solanaSignerFromSecret(base58Secret: string): Promise<KeyPairSigner> {
  return createKeyPairSignerFromBytes(getBase58Encoder().encode(base58Secret));
}
