import { createSolanaRpc, getBase58Encoder, createKeyPairSignerFromBytes, type KeyPairSigner } from "@solana/kit";
import type { FacilitatorClient } from "@x402/core/server";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { x402Facilitator } from "@x402/core/facilitator";
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from "@x402/evm/exact/facilitator";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactSvmScheme as ExactSvmFacilitatorScheme } from "@x402/svm/exact/facilitator";
import { toFacilitatorSvmSigner } from "@x402/svm";
import { createWalletClient, defineChain, http, publicActions, type Account } from "viem";
import type { EvmNetwork, PaymentNetwork, SolanaNetwork } from "./networks";

/** How long settlement waits for an EVM receipt before answering "pending" (the chain is asked again later). */
const CONFIRMATION_TIMEOUT_MS = 30_000;

export function viemChain(n: EvmNetwork) {
  return defineChain({
    id: n.chainId,
    name: n.name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [n.rpcUrl] } },
  });
}

/**
 * The x402 facilitator run inside this process: it verifies payments and settles them on chain with our own
 * gas wallets, one scheme instance per network (a viem signer is bound to one chain).
 */
export function inProcessFacilitator(networks: PaymentNetwork[], gas: { evm: Account; solana: KeyPairSigner }): FacilitatorClient {
  const facilitator = new x402Facilitator();
  for (const n of networks) {
    if (n.kind === "evm") {
      const client = createWalletClient({ account: gas.evm, chain: viemChain(n), transport: http(n.rpcUrl), pollingInterval: 250 }).extend(publicActions);
      const signer = toFacilitatorEvmSigner(
        { ...(client as unknown as Parameters<typeof toFacilitatorEvmSigner>[0]), address: gas.evm.address },
        { confirmationTimeoutMs: CONFIRMATION_TIMEOUT_MS },
      );
      facilitator.register(n.network, new ExactEvmFacilitatorScheme(signer));
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
