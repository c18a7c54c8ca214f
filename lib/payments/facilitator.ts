import { createPrivateKey } from "node:crypto";
import { generateJwt } from "@coinbase/cdp-sdk/auth";
import { createDefaultRpcTransport, createKeyPairSignerFromBytes, createSolanaRpcFromTransport, getBase58Encoder, type KeyPairSigner } from "@solana/kit";
import type { FacilitatorClient } from "@x402/core/server";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { InMemoryPendingSettlementStore, x402Facilitator, type PendingSettlementStore } from "@x402/core/facilitator";
import { ExactEvmScheme as ExactEvmFacilitatorScheme } from "@x402/evm/exact/facilitator";
import { ExactSvmScheme as ExactSvmFacilitatorScheme } from "@x402/svm/exact/facilitator";
import { toFacilitatorSvmSigner } from "@x402/svm";
import type { LocalAccount } from "viem";
import { managedEvmSigner, noteUnanswered, type SenderSync } from "./evm-signer";
import type { PaymentNetwork, SolanaNetwork } from "@/lib/platform/networks";
import type { FacilitatorAuth } from "@/lib/platform/config";

/**
 * How long one wait for an EVM receipt lasts. The x402 server settles a payment that answered "pending" once more at
 * once, which waits again for the same transaction: settlement answers "pending" (the chain is asked again later)
 * after twice this, 30 s.
 */
const CONFIRMATION_TIMEOUT_MS = 15_000;

/**
 * What the shop's Solana fee payer pays for a payment: an ordinary transfer's fees, no more. The payer builds the
 * transaction and the shop signs it as its fee payer, so the compute budget in it is the payer's to choose and the
 * shop's to pay (the priority fee is the unit limit asked times the price per unit). Unbounded, one payment could ask
 * 1,400,000 units at 5,000,000 micro-lamports: 7,000,000 lamports of the shop's SOL. A transferChecked with a memo uses
 * about 20,000 units (the official client asks 20,000 at 1 micro-lamport); the limit leaves it twice that, and the
 * price keeps the priority fee (limit × price) below one signature's 5,000 lamports. A transaction beyond either is
 * refused with the x402 library's reason (`invalid_exact_svm_payload_transaction_instructions_compute_*_too_high`).
 */
export const SOLANA_MAX_COMPUTE_UNITS = 40_000;
/** 40,000 units at 100,000 micro-lamports each: a priority fee of at most 4,000 lamports. */
export const SOLANA_MAX_PRIORITY_FEE_MICROLAMPORTS = 100_000;
/**
 * Each signature a transaction requires costs its fee payer 5,000 lamports: a payment needs the payer's and the fee
 * payer's. More is refused (`invalid_exact_svm_payload_excessive_signers`).
 */
export const SOLANA_MAX_REQUIRED_SIGNATURES = 2;

export type GasWallets = {
  /** The EVM gas wallets (one or more: each settlement goes to the least busy). */
  evm: readonly LocalAccount[];
  solana: KeyPairSigner;
};

/**
 * The x402 facilitator run inside this process: it verifies payments and settles them on chain with our own
 * gas wallets, one scheme instance per network. EVM transactions take their nonces under `sync` (see evm-signer.ts);
 * a Solana payment's transaction is paid for within the bounds above.
 */
export function inProcessFacilitator(
  networks: PaymentNetwork[],
  gas: GasWallets,
  sync: SenderSync,
  opts: { confirmationTimeoutMs?: number; stuckAfterMs?: number } = {},
): FacilitatorClient {
  const facilitator = new x402Facilitator();
  for (const n of networks) {
    if (n.kind === "evm") {
      const signer = managedEvmSigner(n, gas.evm, sync, {
        confirmationTimeoutMs: opts.confirmationTimeoutMs ?? CONFIRMATION_TIMEOUT_MS,
        stuckAfterMs: opts.stuckAfterMs,
      });
      facilitator.register(n.network, new ExactEvmFacilitatorScheme(signer, { pendingSettlementStore: pendingStore(signer) }));
    } else {
      facilitator.register(
        n.network,
        new ExactSvmFacilitatorScheme(solanaSigner(n, gas.solana), undefined, {
          maxComputeUnits: SOLANA_MAX_COMPUTE_UNITS,
          maxPriorityFeeMicroLamports: SOLANA_MAX_PRIORITY_FEE_MICROLAMPORTS,
          maxRequiredSignatures: SOLANA_MAX_REQUIRED_SIGNATURES,
        }),
      );
    }
  }
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported(),
  } as FacilitatorClient;
}

/**
 * Where the x402 library keeps the transaction of a settlement that answered "pending", by the payment's signature: the
 * same payment settled again (the x402 server does it once at once) waits for that transaction instead of sending
 * another. One whose nonce another transaction used is forgotten: it can never be mined, and the payment is sent anew.
 */
function pendingStore(signer: { wasDropped(hash: string): boolean }): PendingSettlementStore {
  const store = new InMemoryPendingSettlementStore();
  return {
    get: async (key) => {
      const hash = await store.get(key);
      if (hash === undefined || !signer.wasDropped(hash)) return hash;
      await store.delete(key);
      return undefined;
    },
    set: (key, hash) => store.set(key, hash),
    delete: (key) => store.delete(key),
  };
}

function solanaSigner(n: SolanaNetwork, signer: KeyPairSigner) {
  // The per-network map form: a bare RPC object would be taken for a config object.
  return toFacilitatorSvmSigner(signer, { [n.network]: countedSolanaRpc(n.rpcUrl) } as Parameters<typeof toFacilitatorSvmSigner>[1]);
}

/** A Solana RPC call that got no answer is made again this many times, after 150 ms, 300 ms, 600 ms (as viem does on EVM). */
const SOLANA_RPC_RETRIES = 3;
const SOLANA_RPC_RETRY_MS = 150;

/**
 * The Solana facilitator's RPC. A call that got no answer from the node is made again a few times, and if it never got
 * one it is counted in the caller's `unanswered` record, as the EVM signer's calls are: the x402 library reads a
 * simulation it could not run as a failed one, the payer's fault. The transport throws only when no JSON-RPC answer
 * came (no connection, an HTTP error status such as 429 or 503); the node's own refusals come back as answers, and are
 * neither repeated nor counted. Every call is safe to repeat: a transaction sent twice is the same signed transaction.
 */
function countedSolanaRpc(url: string) {
  const transport = createDefaultRpcTransport({ url });
  const retrying: typeof transport = async <TResponse>(config: Parameters<typeof transport>[0]) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await transport<TResponse>(config);
      } catch (err) {
        // A call its caller gave up on is not the node's silence.
        if (config.signal?.aborted) throw err;
        if (attempt >= SOLANA_RPC_RETRIES) {
          noteUnanswered(err);
          throw err;
        }
        await new Promise((r) => setTimeout(r, SOLANA_RPC_RETRY_MS * 2 ** attempt));
      }
    }
  };
  return createSolanaRpcFromTransport(retrying);
}

/** A facilitator over HTTP (FACILITATOR_URL), with the credentials a hosted one asks for on every call. */
export function remoteFacilitator(url: string, auth?: FacilitatorAuth): FacilitatorClient {
  return new HTTPFacilitatorClient({ url, ...(auth ? { createAuthHeaders: facilitatorAuthHeaders(url, auth) } : {}) });
}

/** The facilitator's calls, as the x402 HTTP client names them, with their method and path under the facilitator's URL. */
const FACILITATOR_CALLS = {
  verify: ["POST", "/verify"],
  settle: ["POST", "/settle"],
  supported: ["GET", "/supported"],
  bazaar: ["GET", "/discovery/resources"],
} as const;

type CallHeaders = Record<keyof typeof FACILITATOR_CALLS, Record<string, string>>;

/**
 * The headers of each facilitator call. A header line is sent as it is; a CDP API key signs a JWT per call (CDP's own
 * helper: `sub` the key id, `iss` "cdp", `uris` the call's "METHOD host/path", two minutes long), fresh for every call.
 */
export function facilitatorAuthHeaders(url: string, auth: FacilitatorAuth): () => Promise<CallHeaders> {
  const calls = Object.entries(FACILITATOR_CALLS) as [keyof CallHeaders, (typeof FACILITATOR_CALLS)[keyof CallHeaders]][];
  if (auth.kind === "header") {
    const headers = { [auth.name]: auth.value };
    return async () => Object.fromEntries(calls.map(([call]) => [call, headers])) as CallHeaders;
  }
  const { host, pathname } = new URL(url);
  const base = pathname.replace(/\/+$/, "");
  const keySecret = pkcs8(auth.keySecret);
  return async () => {
    try {
      const signed = await Promise.all(
        calls.map(async ([call, [method, path]]) => {
          const jwt = await generateJwt({ apiKeyId: auth.keyId, apiKeySecret: keySecret, requestMethod: method, requestHost: host, requestPath: base + path });
          return [call, { Authorization: `Bearer ${jwt}` } as Record<string, string>] as const;
        }),
      );
      return Object.fromEntries(signed) as CallHeaders;
    } catch (err) {
      throw new Error(`CDP_API_KEY_SECRET is not a CDP API key secret (a base64 Ed25519 key, or an EC key in PEM): ${(err as Error).message}`);
    }
  };
}

/** CDP's EC keys come as SEC1 PEM ("BEGIN EC PRIVATE KEY"); its JWT helper reads PKCS #8. Other secrets pass as they are. */
function pkcs8(secret: string): string {
  if (!secret.includes("BEGIN EC PRIVATE KEY")) return secret;
  try {
    return createPrivateKey(secret).export({ format: "pem", type: "pkcs8" }) as string;
  } catch {
    return secret;
  }
}

export async function solanaSignerFromSecret(base58Secret: string): Promise<KeyPairSigner> {
  return createKeyPairSignerFromBytes(getBase58Encoder().encode(base58Secret));
}
