import type { Devnet } from "@/lib/devnet";
import { anvilRpc } from "@/lib/devnet";
import type { SenderSync } from "@/lib/payments";
import { chainPayout } from "./chain-payout";
import type { Payout } from "./refund";

const CONFIRM_TIMEOUT_MS = 30_000;
/** Gas money for the payTo wallet, which only ever receives USDC: the devnet sets it rather than mints it. */
const PAYTO_GAS_WEI = 10n ** 18n;

/**
 * Refunds on the devnet: a real USDC transfer from the shop's payTo wallet back to the payer, on the network the
 * invoice was paid on. The payTo wallet holds no gas: on the EVM chains the devnet sets its balance before each
 * transfer, and on Solana the devnet's gas wallet pays the fee.
 */
export function devnetPayout(devnet: Pick<Devnet, "networks" | "addressNetworks" | "keys">, sync: SenderSync): Payout {
  return chainPayout({
    // (Ethereum's too: a shopper's invoice paid there by address is refunded there.)
    networks: [...devnet.networks, ...devnet.addressNetworks],
    evmKey: devnet.keys.evmPayTo,
    solanaKey: devnet.keys.solanaPayTo,
    solanaFeePayer: devnet.keys.solanaFacilitator,
    beforeEvmTransfer: async (n, from) => {
      await anvilRpc(n.rpcUrl, "anvil_setBalance", [from, `0x${PAYTO_GAS_WEI.toString(16)}`]);
    },
    confirmTimeoutMs: CONFIRM_TIMEOUT_MS,
    sync,
  });
}
