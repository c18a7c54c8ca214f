import { getDb } from "@/lib/db";
import { jsonResponse } from "@/lib/http/api-error";
import { nextStep } from "@/lib/http/next-step";
import { withWallet } from "@/lib/http/with-wallet";
import { x402Preflight } from "@/lib/http/with-x402-fee";
import { walletId, walletOwnerKey } from "@/lib/identity";
import { listWalletEsims } from "@/lib/invoices";

export const dynamic = "force-dynamic";

/** The signed-in wallet's eSIMs with their active bundles, and where to find top-up packages for each. */
export const GET = withWallet("myEsims", async (_req, { wallet, origin }) => {
  const key = walletOwnerKey(wallet);
  const esims = key ? await listWalletEsims(await getDb(), key) : [];
  const now = Date.now();
  return jsonResponse({
    wallet: walletId(wallet),
    esims: esims.map((e) => ({
      iccid: e.iccid,
      product_id: e.productId,
      name: e.productName,
      order_id: e.orderId,
      invoice_id: e.invoiceId,
      lpa: e.lpa,
      bundles: [
        {
          value: e.bundle.value,
          data_mb: e.bundle.dataMb,
          validity_days: e.bundle.validityDays,
          activated_at: e.bundle.activatedAt?.toISOString() ?? null,
          expires_at: e.bundle.expiresAt?.toISOString() ?? null,
          active: !e.bundle.expiresAt || e.bundle.expiresAt.getTime() > now,
        },
      ],
      topup_options_url: nextStep(origin, "GET", `/x402/products/detail?slug=${encodeURIComponent(e.productId)}`).url,
    })),
  });
});

export const OPTIONS = x402Preflight;
