import type { PaymentRequirements } from "@x402/core/types";
import { x402ResourceServer } from "@x402/core/server";
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server";
import { ExactSvmScheme as ExactSvmServerScheme } from "@x402/svm/exact/server";
import { privateKeyToAccount } from "viem/accounts";
import { config, ConfigError, type Config } from "@/lib/config";
import { getDevnet } from "@/lib/devnet";
import { LocalnetExactSvmServerScheme } from "@/lib/devnet/solana/x402";
import { inProcessFacilitator, remoteFacilitator, solanaSignerFromSecret } from "./facilitator";
import { missingPaymentSettings, publicNetworks, usdcAsset, type PaymentNetwork } from "./networks";

/** How long a client has to get its payment settled after the 402. */
export const MAX_TIMEOUT_SECONDS = 300;

export type Payments = {
  networks: PaymentNetwork[];
  server: x402ResourceServer;
  /** One payment requirement per network of the mode, for an amount in USDC atomic units. */
  requirements(amountAtomic: bigint): Promise<PaymentRequirements[]>;
};

async function createPayments(c: Config): Promise<Payments> {
  const missing = missingPaymentSettings(c);
  if (missing.length > 0) {
    throw new ConfigError(missing.map((m) => ({ variable: m.split(" ")[0] ?? m, message: `missing for NETWORK_MODE=${c.networkMode}: ${m}` })));
  }
  let networks: PaymentNetwork[];
  let facilitator;
  if (c.networkMode === "devnet") {
    const devnet = await getDevnet();
    networks = devnet.networks;
    facilitator = c.facilitatorUrl
      ? remoteFacilitator(c.facilitatorUrl)
      : inProcessFacilitator(networks, { evm: devnet.keys.evmFacilitator, solana: devnet.keys.solanaFacilitator });
  } else {
    networks = publicNetworks(c);
    facilitator = c.facilitatorUrl
      ? remoteFacilitator(c.facilitatorUrl)
      : inProcessFacilitator(networks, {
          evm: privateKeyToAccount(c.facilitatorEvmPrivateKey!),
          solana: await solanaSignerFromSecret(c.facilitatorSolanaPrivateKey!),
        });
  }
  const server = new x402ResourceServer(facilitator);
  server.register("eip155:*", new ExactEvmServerScheme());
  for (const n of networks) {
    // The local Solana chain's USDC is no mint the stock scheme knows.
    if (c.networkMode === "devnet" && n.kind === "solana") server.register(n.network, new LocalnetExactSvmServerScheme(n));
  }
  server.register("solana:*", new ExactSvmServerScheme());
  await server.initialize();

  return {
    networks,
    server,
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
