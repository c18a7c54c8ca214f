// A server settling a payment, for the kill -9 test (settle-crash.db.test.ts): it opens the embedded database in DATA
// folder argv[2], settles the payment argv[5] (a PAYMENT-SIGNATURE header) for invoice argv[4] on the devnet at argv[3]
// (npm run devnet) through the one x402 exchange, prints "sent" once its transaction has reached the chain, and never
// learns the outcome (its RPC loses every receipt) until it is killed: the crash falls between broadcast and record.
import "@/lib/wiring";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { openDatabase } from "@/lib/db/client";
import { connectDevnet } from "@/lib/devnet/shared";
import { invoiceClaim } from "@/lib/invoices";
import { getInvoice } from "@/lib/invoices/payment";
import { exchange, findMatchingRequirement } from "@/lib/payments/exchange";
import { inProcessFacilitator } from "@/lib/payments/facilitator";
import { databaseSenderSync } from "@/lib/payments/nonce-store";
import { paymentsWith } from "@/lib/payments/payments";
import { decodePaymentHeader } from "./payment-header";
import { settlementEffects } from "./settlement-effects";

/** A JSON-RPC proxy that forwards everything but answers "no receipt yet" forever. */
async function receiptlessRpc(target: string): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const calls = ([] as { method: string; id: number }[]).concat(JSON.parse(body) as never);
        if (calls.some((c) => c.method === "eth_getTransactionReceipt")) {
          res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: calls[0]!.id, result: null }));
          return;
        }
        const upstream = await fetch(target, { method: "POST", headers: { "Content-Type": "application/json" }, body });
        res.writeHead(upstream.status, { "Content-Type": "application/json" }).end(await upstream.text());
        if (calls.some((c) => c.method === "eth_sendRawTransaction")) process.stdout.write("sent\n");
      })().catch(() => res.writeHead(500).end());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function main() {
  const [dataDir, devnetUrl, invoiceId, header] = process.argv.slice(2);
  if (!dataDir || !devnetUrl || !invoiceId || !header) throw new Error("usage: settle-crash.fixture.ts DATA_DIR DEVNET_URL INVOICE_ID PAYMENT");
  const database = await openDatabase({ driver: "pglite", dataDir, role: "settle-crash-server" });
  const devnet = await connectDevnet(devnetUrl);
  const networks = await Promise.all(devnet.networks.map(async (n) => (n.kind === "evm" ? { ...n, rpcUrl: await receiptlessRpc(n.rpcUrl) } : n)));
  const facilitator = inProcessFacilitator(
    networks,
    { evm: [devnet.keys.evmFacilitator], solana: devnet.keys.solanaFacilitator },
    databaseSenderSync(async () => database),
    {
      confirmationTimeoutMs: 10 * 60_000,
    },
  );
  const payments = await paymentsWith({ networks, facilitator, devnet: true, inProcess: true });
  const invoice = await getInvoice(database.db, invoiceId);
  if (!invoice) throw new Error(`no invoice ${invoiceId}`);
  const offered = await payments.requirements(invoice.priceUsdc);
  const payload = decodePaymentHeader(header, offered);
  const requirement = findMatchingRequirement(payments, offered, payload);
  if (!requirement) throw new Error("the payment matches no requirement");
  await exchange({
    db: database.db,
    payments,
    payload,
    requirement,
    purpose: "invoice",
    reference: invoiceId,
    claim: invoiceClaim(invoiceId),
    effects: settlementEffects,
  });
  throw new Error("the settlement finished: it was meant to hang");
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
