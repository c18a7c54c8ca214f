// `npm run admin -- refunds ...`: refunds of failed orders that are due, and refunds the operator paid by hand.
import { parseArgs } from "node:util";
import { markPaidWire, REFUND_REFUSED, refundsWire } from "@/lib/api/admin/wire";
import { withDatabase } from "@/lib/platform/db";
import { listRefundsDue, markRefundPaid, type RefundDue } from "@/lib/fulfilment";
import { USDC_DECIMALS } from "@/lib/platform/money";
import { ShopRefusal, shopHoldingData, shopJson, type Shop } from "./admin-shop";
import { DomainError } from "@/lib/platform/errors";

export const REFUNDS_HELP = `  refunds list [--json] [--url URL]
      Refunds due: paid invoices whose failed orders were not paid back yet, with the network, the address
      to pay, the amount in USDC and the last error. With REFUND_EVM_PRIVATE_KEY / REFUND_SOLANA_PRIVATE_KEY
      set, the server pays these itself (and keeps trying); without, they wait for you.
  refunds mark-paid INVOICE_ID --tx TX [--url URL]
      Records a refund you paid by hand: the invoice's failed orders become refunded with that transaction
      (a 0x hash on EVM networks, a signature on Solana).`;

/** Runs a `refunds` command; returns the exit code (1 when the refund cannot be recorded, 2 for a usage error). */
export async function refundsCommand(command: string | undefined, args: string[]): Promise<number> {
  if (command === "list") return list(args);
  if (command === "mark-paid") return markPaid(args);
  console.error(`Unknown refunds command: ${command ?? "(none)"}\n\n${REFUNDS_HELP}`);
  return 2;
}

async function list(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: "boolean", default: false }, url: { type: "string" } } });
  const shop = shopHoldingData(values.url);
  const due = shop ? await shopJson(shop, "GET", "/api/admin/refunds", refundsWire) : await withDatabase("admin refunds list", listRefundsDue);
  if (values.json) console.log(JSON.stringify(due, (_, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2));
  else console.log(due.length === 0 ? "No refund is due." : table(due));
  return 0;
}

async function markPaid(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { tx: { type: "string" }, url: { type: "string" } } });
  const invoiceId = positionals[0];
  if (!invoiceId || !values.tx || positionals.length > 1) {
    console.error(`refunds mark-paid needs an INVOICE_ID and --tx.\n\n${REFUNDS_HELP}`);
    return 2;
  }
  const tx = values.tx;
  try {
    const shop = shopHoldingData(values.url);
    const marked = shop
      ? await markPaidThroughShop(shop, invoiceId, tx)
      : await withDatabase("admin refunds mark-paid", (db) => markRefundPaid(db, invoiceId, tx));
    console.log(`Marked ${marked} order(s) of ${invoiceId} refunded by ${tx.trim()}.`);
    return 0;
  } catch (err) {
    if (!(err instanceof DomainError && err.code === "refund_refused")) throw err;
    console.error(err.message);
    return 1;
  }
}

/** The same record through the running shop (POST /api/admin/refunds/{id}/mark-paid); its refusal is the domain's. */
async function markPaidThroughShop(shop: Shop, invoiceId: string, tx: string): Promise<number> {
  try {
    return (await shopJson(shop, "POST", `/api/admin/refunds/${encodeURIComponent(invoiceId)}/mark-paid`, markPaidWire, { tx })).marked;
  } catch (err) {
    if (err instanceof ShopRefusal && err.code === REFUND_REFUSED) throw new DomainError("refund_refused", err.reason);
    throw err;
  }
}

/** "10.000000": an amount in USDC atomic units with all its decimals. */
function usdc(atomic: bigint): string {
  const unit = 10n ** BigInt(USDC_DECIMALS);
  return `${atomic / unit}.${(atomic % unit).toString().padStart(USDC_DECIMALS, "0")}`;
}

function table(rows: RefundDue[]): string {
  const header = ["invoice", "network", "to", "orders", "usdc", "since", "last error"];
  const cells = rows.map((r) => [
    r.invoiceId,
    r.network ?? "",
    r.paymentPayer ?? r.payer,
    String(r.orders),
    usdc(r.amountUsdc),
    r.since.toISOString(),
    (r.lastError ?? "").replace(/\s+/g, " ").slice(0, 200),
  ]);
  const all = [header, ...cells];
  const widths = header.map((_, i) => Math.max(...all.map((c) => c[i]!.length)));
  const numeric = new Set([3, 4]);
  return all.map((c) => c.map((v, i) => (i === c.length - 1 ? v : numeric.has(i) ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join("  ")).join("\n");
}
