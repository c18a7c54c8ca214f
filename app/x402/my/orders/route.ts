import { x402Preflight } from "@/lib/http/x402/with-x402-fee";
import { invalidParams, jsonResponse } from "@/lib/http/api-error";
import { withWallet } from "@/lib/http/x402/with-wallet";
import { usdcToDecimal } from "@/lib/catalog";
import { getDb } from "@/lib/db";
import { nextStep } from "@/lib/http/next-step";
import { myOrdersQuery } from "@/lib/http/x402/x402-query";
import { walletId, walletOwnerKey } from "@/lib/identity";
import { listWalletOrders, effectiveStatus } from "@/lib/invoices";

export const dynamic = "force-dynamic";

function parse(req: Request) {
  const url = new URL(req.url);
  const parsed = myOrdersQuery.safeParse({ start: url.searchParams.get("start") ?? undefined, limit: url.searchParams.get("limit") ?? undefined });
  if (!parsed.success) throw invalidParams(parsed.error.issues);
  return parsed.data;
}

/** The signed-in wallet's orders, newest first, paged. Codes are read from the invoice status route. */
export const GET = withWallet(
  "myOrders",
  async (req, { wallet, origin }) => {
    const { start, limit } = parse(req);
    const key = walletOwnerKey(wallet);
    const { total, items } = key ? await listWalletOrders(await getDb(), key, { start, limit }) : { total: 0, items: [] };
    return jsonResponse({
      wallet: walletId(wallet),
      orders: items.map(({ order: o, invoice }) => ({
        order_id: o.id,
        invoice_id: invoice.id,
        invoice_status: effectiveStatus(invoice),
        product_id: o.productId,
        name: o.productName,
        kind: o.productKind,
        package_value: o.packageValue,
        price_usdc: usdcToDecimal(o.priceUsdc),
        status: o.status,
        ...(o.errorCode ? { error_code: o.errorCode } : {}),
        created_at: o.createdAt.toISOString(),
        paid_at: invoice.paidAt?.toISOString() ?? null,
        delivered_at: o.deliveredAt?.toISOString() ?? null,
        codes_available: o.status === "delivered" && o.redemption !== null,
        status_url: nextStep(origin, "GET", `/x402/invoice/status?invoice_id=${invoice.id}`).url,
      })),
      start,
      limit,
      total,
    });
  },
  { precheck: (req) => void parse(req) },
);

export const OPTIONS = x402Preflight;
