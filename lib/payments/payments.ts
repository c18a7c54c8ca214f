import type { PaymentRequirements } from "@x402/core/types";
import { x402ResourceServer, type FacilitatorClient } from "@x402/core/server";
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server";
import { ExactSvmScheme as ExactSvmServerScheme } from "@x402/svm/exact/server";
import { privateKeyToAccount } from "viem/accounts";
import type { LocalAccount } from "viem";
import type { KeyPairSigner } from "@solana/kit";
import { config, ConfigError, type Config } from "@/lib/platform/config";
import { getDatabase } from "@/lib/platform/db";
import { getDevnet, LocalnetExactSvmServerScheme } from "@/lib/devnet";
import type { SenderSync } from "./evm-signer";
import { inProcessFacilitator, remoteFacilitator, solanaSignerFromSecret } from "./facilitator";
import { databaseSenderSync } from "./nonce-store";
import { missingPaymentSettings, publicAddressNetworks, publicNetworks, usdcAsset, type EvmNetwork, type PaymentNetwork } from "@/lib/platform/networks";
import type { GasSender } from "./address-watch";
import { forwarderGasSender } from "./gas-sender";

/** How long a client has to get its payment settled after the 402. */
export const MAX_TIMEOUT_SECONDS = 300;

export type Payments = {
  /** The networks x402 pays on. */
  networks: PaymentNetwork[];
  /**
   * The EVM networks where invoices can be paid by a transfer to their own address: those of x402, and Ethereum (by
   * address only). Watched and flushed by the gas wallets (`gasSender`).
   */
  addressNetworks: EvmNetwork[];
  server: x402ResourceServer;
  /** Whether settlement runs in this process (it then knows whether a transaction was sent) or at a remote facilitator. */
  inProcess: boolean;
  /** The in-process facilitator's Solana fee payer (its signature is a transaction's id); none with a remote facilitator. */
  solanaFeePayer?: KeyPairSigner;
  /** The in-process facilitator's EVM gas wallets (they pay for settlements); none with a remote facilitator. */
  evmGasWallets?: `0x${string}`[];
  /**
   * The sender of an EVM network's gas wallets for the address payments' flushes (lib/payments/address-watch.ts);
   * undefined without in-process gas wallets (a remote facilitator on testnet or mainnet): then no address payment is
   * offered.
   */
  gasSender(n: EvmNetwork): GasSender | undefined;
  /** One payment requirement per network of the mode, for an amount in USDC atomic units. */
  requirements(amountAtomic: bigint): Promise<PaymentRequirements[]>;
  /**
   * Every Solana address that pays the fees of the shop's x402 settlements: the in-process fee payer, or all the
   * Solana signers a remote facilitator lists (it picks one of them per payment). Their transactions are x402's.
   */
  solanaSigners(): Promise<string[]>;
};

/** Nonces of the gas wallets are taken under the database's lock and kept in it, so that several servers can share the wallets. */
export const senderSync: SenderSync = databaseSenderSync(getDatabase);

async function createPayments(c: Config): Promise<Payments> {
  const missing = missingPaymentSettings(c);
  if (missing.length > 0) {
    throw new ConfigError(missing.map((m) => ({ variable: m.split(" ")[0] ?? m, message: `missing for NETWORK_MODE=${c.networkMode}: ${m}` })));
  }
  let networks: PaymentNetwork[];
  let addressOnly: EvmNetwork[];
  let facilitator: FacilitatorClient;
  let solanaFeePayer: KeyPairSigner | undefined;
  let evmGasWallets: `0x${string}`[] | undefined;
  // The accounts that pay the address payments' flushes: the in-process facilitator's (the devnet's always).
  let flushAccounts: LocalAccount[] = [];
  if (c.networkMode === "devnet") {
    const devnet = await getDevnet();
    networks = devnet.networks;
    addressOnly = devnet.addressNetworks;
    facilitator = c.facilitatorUrl
      ? remoteFacilitator(c.facilitatorUrl, c.facilitatorAuth)
      : inProcessFacilitator(networks, { evm: [devnet.keys.evmFacilitator], solana: devnet.keys.solanaFacilitator }, senderSync);
    solanaFeePayer = c.facilitatorUrl ? undefined : devnet.keys.solanaFacilitator;
    evmGasWallets = c.facilitatorUrl ? undefined : [devnet.keys.evmFacilitator.address];
    flushAccounts = [devnet.keys.evmFacilitator];
  } else {
    networks = publicNetworks(c);
    addressOnly = publicAddressNetworks(c);
    facilitator = c.facilitatorUrl
      ? remoteFacilitator(c.facilitatorUrl, c.facilitatorAuth)
      : inProcessFacilitator(
          networks,
          {
            evm: c.facilitatorEvmPrivateKeys.map((k) => privateKeyToAccount(k)),
            solana: (solanaFeePayer = await solanaSignerFromSecret(c.facilitatorSolanaPrivateKey!)),
          },
          senderSync,
        );
    evmGasWallets = c.facilitatorUrl ? undefined : c.facilitatorEvmPrivateKeys.map((k) => privateKeyToAccount(k).address);
    flushAccounts = c.facilitatorEvmPrivateKeys.map((k) => privateKeyToAccount(k));
  }
  return {
    ...(await paymentsWith({
      networks,
      addressOnly,
      facilitator,
      devnet: c.networkMode === "devnet",
      inProcess: !c.facilitatorUrl,
      solanaFeePayer,
      flushAccounts,
    })),
    evmGasWallets,
  };
}

/**
 * The resource server over a facilitator, for the given networks: what getPayments builds from the configuration, and
 * what tests build over chains of their own.
 */
export async function paymentsWith(opts: {
  networks: PaymentNetwork[];
  /** EVM networks paid by address only (Ethereum). */
  addressOnly?: EvmNetwork[];
  facilitator: FacilitatorClient;
  devnet: boolean;
  inProcess: boolean;
  solanaFeePayer?: KeyPairSigner;
  /** The gas wallets that flush address payments (none: no address payments). */
  flushAccounts?: LocalAccount[];
}): Promise<Payments> {
  const { networks, facilitator, solanaFeePayer } = opts;
  if (!opts.inProcess) {
    // The resource server would only say that no kind is supported: a refused credential or an unreachable URL is
    // what the operator needs to read.
    await facilitator.getSupported().catch((err: unknown) => {
      throw new Error(`The facilitator (FACILITATOR_URL) did not say what it supports: ${(err as Error).message}`);
    });
  }
  const server = new x402ResourceServer(facilitator);
  server.register("eip155:*", new ExactEvmServerScheme());
  for (const n of networks) {
    // The local Solana chain's USDC is no mint the stock scheme knows.
    if (opts.devnet && n.kind === "solana") server.register(n.network, new LocalnetExactSvmServerScheme(n));
  }
  server.register("solana:*", new ExactSvmServerScheme());
  await server.initialize();
  const senders = new Map<string, GasSender>();

  return {
    networks,
    addressNetworks: [...networks.filter((n): n is EvmNetwork => n.kind === "evm"), ...(opts.addressOnly ?? [])],
    server,
    inProcess: opts.inProcess,
    solanaFeePayer,
    gasSender(n) {
      const accounts = opts.flushAccounts ?? [];
      if (accounts.length === 0) return undefined;
      let sender = senders.get(n.network);
      if (!sender) senders.set(n.network, (sender = forwarderGasSender(n, accounts, senderSync)));
      return sender;
    },
    async solanaSigners() {
      if (opts.inProcess) return solanaFeePayer ? [solanaFeePayer.address] : [];
      const supported = await facilitator.getSupported();
      const listed = Object.entries(supported.signers ?? {}).flatMap(([family, addresses]) => (family.startsWith("solana") ? addresses : []));
      const offered = supported.kinds.flatMap((k) => (k.network.startsWith("solana:") && typeof k.extra?.feePayer === "string" ? [k.extra.feePayer] : []));
      return [...new Set([...listed, ...offered])];
    },
    async requirements(amountAtomic) {
      const all = await Promise.all(
        networks.map((n) =>
          server.buildPaymentRequirements({
            scheme: "exact",
            network: n.network,
            payTo: n.payTo,
            maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
            price: {
              amount: amountAtomic.toString(),
              asset: usdcAsset(n),
              extra: n.kind === "evm" ? { name: n.usdc.name, version: n.usdc.version } : {},
            },
          }),
        ),
      );
      return all.flat();
    },
  };
}

const globalForPayments = globalThis as typeof globalThis & { __storefrontPayments?: Promise<Payments> };

/** The process's payment setup (networks, facilitator, resource server), created once. */
export function getPayments(): Promise<Payments> {
  if (!globalForPayments.__storefrontPayments) {
    const creating = createPayments(config());
    globalForPayments.__storefrontPayments = creating;
    creating.catch(() => {
      if (globalForPayments.__storefrontPayments === creating) globalForPayments.__storefrontPayments = undefined;
    });
  }
  return globalForPayments.__storefrontPayments;
}
