import { createSolanaRpc, type Signature } from "@solana/kit";
import { createPublicClient, http, type Hash } from "viem";
import { viemChain } from "./facilitator";
import type { PaymentNetwork } from "./networks";

export type TxOutcome = "success" | "failed" | "unknown";

/** What the chain says of a transaction: landed and succeeded, landed and failed, or not (yet) seen. */
export async function checkTransaction(n: PaymentNetwork, tx: string): Promise<TxOutcome> {
  try {
    if (n.kind === "evm") {
      const client = createPublicClient({ chain: viemChain(n), transport: http(n.rpcUrl) });
      const receipt = await client.getTransactionReceipt({ hash: tx as Hash }).catch(() => null);
      if (!receipt) return "unknown";
      return receipt.status === "success" ? "success" : "failed";
    }
    const { value } = await createSolanaRpc(n.rpcUrl).getSignatureStatuses([tx as Signature]).send();
    const status = value[0];
    if (!status) return "unknown";
    if (status.err) return "failed";
    return status.confirmationStatus === "processed" ? "unknown" : "success";
  } catch {
    return "unknown";
  }
}
