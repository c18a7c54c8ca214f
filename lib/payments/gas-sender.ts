import type { LocalAccount } from "viem";
import type { EvmNetwork } from "@/lib/platform/networks";
import type { GasSender } from "./address-watch";
import { managedEvmSigner, type SenderSync } from "./evm-signer";
import { FORWARDER_FACTORY, factoryDeployCall, readClient } from "./forwarders";

/** How long the factory's deployment is waited for before the flush that needed it is tried again next round. */
const DEPLOY_WAIT_MS = 60_000;
/** How long a sent flush is followed (replaced if stuck, its wallet's nonce gaps filled) before the next round's. */
const FOLLOW_MS = 120_000;

/**
 * The gas wallets' sender of one network for the address payments' flushes: transactions signed with nonces under
 * the database's lock (the settlements' signer, shared with them and with other servers). The first flush on a network
 * deploys the forwarder factory through the CREATE2 deployer if it is not there yet, and waits for it: one
 * transaction per network, ever (of two servers deploying at once, the second's is refused as it is simulated).
 */
export function forwarderGasSender(n: EvmNetwork, accounts: readonly LocalAccount[], sync: SenderSync): GasSender {
  const signer = managedEvmSigner(n, accounts, sync, { confirmationTimeoutMs: 15_000 });
  const client = readClient(n);
  let factory: Promise<void> | undefined;
  const ensureFactory = () =>
    (factory ??= (async () => {
      const code = await client.getCode({ address: FORWARDER_FACTORY });
      if (code && code !== "0x") return;
      const hash = await signer.sendTransaction(factoryDeployCall());
      const receipt = await client.waitForTransactionReceipt({ hash, timeout: DEPLOY_WAIT_MS, pollingInterval: 250 });
      if (receipt.status !== "success") throw new Error(`the forwarder factory's deployment ${hash} failed on ${n.network}`);
    })().catch((err: unknown) => {
      factory = undefined;
      throw err;
    }));
  return async (call) => {
    await ensureFactory();
    const hash = await signer.sendTransaction(call);
    // Followed in the background, as a settlement's transaction is: one the chain's fee keeps out is sent again
    // dearer, and a nonce the node lost below it (dropped from its pool, or its block reorganized away) is filled,
    // so that this wallet's later transactions are not held behind it. The flush itself is judged from the chain.
    void signer.waitForTransactionReceipt({ hash, timeout: FOLLOW_MS }).catch(() => undefined);
    return hash;
  };
}
