import { getDb } from "@/lib/db";
import { jsonResponse } from "@/lib/http/api-error";
import { nextStep } from "@/lib/http/next-step";
import { withWallet } from "@/lib/http/x402/with-wallet";
import { x402Preflight } from "@/lib/http/x402/with-x402-fee";
import { walletId, walletOwnerKey } from "@/lib/identity";
import { listWalletEsims, type WalletEsimBundle } from "@/lib/invoices";

export const dynamic = "force-dynamic";

const active = (b: WalletEsimBundle, now: number) => !b.expiresAt || b.expiresAt.getTime() > now;
const bundleJson = (b: WalletEsimBundle) => ({
  value: b.value,
  data_mb: b.dataMb,
  validity_days: b.validityDays,
  order_id: b.orderId,
  activated_at: b.activatedAt?.toISOString() ?? null,
  expires_at: b.expiresAt?.toISOString() ?? null,
});

/**
 * The signed-in wallet's eSIMs with their active bundles (expired ones apart), and where to find the packages that
 * top each one up.
 */
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
      bundles: e.bundles.filter((b) => active(b, now)).map(bundleJson),
      past_bundles: e.bundles.filter((b) => !active(b, now)).map(bundleJson),
      topup_options_url: nextStep(origin, "GET", `/x402/products/detail?slug=${encodeURIComponent(e.productId)}&iccid=${e.iccid}`).url,
    })),
  });
});

export const OPTIONS = x402Preflight;
