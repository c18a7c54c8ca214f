// Every /x402 route's handler, one table: the app's route files serve them over HTTP, and the MCP server
// (lib/agents/mcp) calls the same ones for its tools, so that fees, limits, prices and wallet rules are one code path.
import { usdcToDecimal } from "@/lib/platform/money";
import { config } from "@/lib/platform/config";
import { getDb } from "@/lib/platform/db";
import { kickWorker } from "@/lib/fulfilment";
import { issueSessionToken, walletId, walletOwnerKey } from "@/lib/identity";
import {
  effectiveStatus,
  listWalletEsims,
  listWalletOrders,
  type WalletEsimBundle,
  createInvoiceResponse,
  readCreateBody,
  payInvoice,
  invoiceStatusResponse,
  requireInvoiceId,
} from "@/lib/checkout";
import { getPayments } from "@/lib/payments";
import { invalidQuery, jsonResponse } from "@/lib/platform/http/api-error";
import { nextStep, withWallet, withX402Fee, myOrdersQuery } from "@/lib/api/x402";
import { checkoutInfo as checkoutInfoBody } from "./info";
import { checkDetailQuery, productDetailResponse } from "./product";
import type { X402RouteId } from "@/lib/api/x402";
import { x402SearchRoute } from "./search";

// GET /x402/checkout/info
const checkoutInfo = withX402Fee("checkoutInfo", async (_req, { origin }) =>
  jsonResponse(checkoutInfoBody(origin, (await getPayments()).networks, config().networkMode)),
);

// GET /x402/products/detail
const productDetail = withX402Fee(
  "productDetail",
  async (req, { origin }) => jsonResponse(await productDetailResponse(new URL(req.url), origin)),
  (req) => checkDetailQuery(new URL(req.url)),
);

// POST /x402/invoice/create
/**
 * Quotes a cart and locks its price. The paying wallet is the SIGN-IN-WITH-X wallet when one is sent, else the
 * session token's, else the payer of the 0.002 fee. A sign-in names the wallet; the fee is still due.
 */
const invoiceCreate = withX402Fee(
  "invoiceCreate",
  async (req, { wallet, signedIn, origin }) => jsonResponse(await createInvoiceResponse(req, signedIn ?? wallet, origin)),
  async (req) => void (await readCreateBody(req)),
  { signIn: { waivesFee: false } },
);

// GET /x402/invoice/status
/**
 * Status for whoever pays the fee. The paying wallet, proven by SIGN-IN-WITH-X (which also waives the fee) or by its
 * session token, sees the codes; another proven wallet gets 403.
 */
const invoiceStatus = withX402Fee(
  "invoiceStatus",
  async (req, { origin, wallet, via, signedIn }) => {
    const viewer = signedIn ? { wallet: signedIn, proven: true } : wallet ? { wallet, proven: via === "token" } : null;
    return jsonResponse(await invoiceStatusResponse(new URL(req.url), origin, viewer));
  },
  (req) => void requireInvoiceId(new URL(req.url)),
  { signIn: { waivesFee: true } },
);

// GET /x402/my/orders
function parseMyOrders(req: Request) {
  const url = new URL(req.url);
  const parsed = myOrdersQuery.safeParse({ start: url.searchParams.get("start") ?? undefined, limit: url.searchParams.get("limit") ?? undefined });
  if (!parsed.success) throw invalidQuery(myOrdersQuery, parsed.error.issues);
  return parsed.data;
}

/** The signed-in wallet's orders, newest first, paged. Codes are read from the invoice status route. */
const myOrders = withWallet(
  "myOrders",
  async (req, { wallet, origin }) => {
    const { start, limit } = parseMyOrders(req);
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
        currency: o.currency,
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
  { precheck: (req) => void parseMyOrders(req) },
);

// GET /x402/my/esims
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
const myEsims = withWallet("myEsims", async (_req, { wallet, origin }) => {
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

// POST /x402/connect
/** One SIWX signature -> a session token for X-Access-Token. */
const connect = withWallet(
  "connect",
  async (_req, { wallet, origin }) => {
    const { token, expiresIn } = await issueSessionToken(wallet);
    return jsonResponse({
      token,
      token_header: "X-Access-Token",
      expires_in: expiresIn,
      wallet: walletId(wallet),
      next_step: nextStep(origin, "GET", "/x402/my/orders"),
    });
  },
  { acceptToken: false },
);

/** The handler of each route in X402_ROUTES. */
export const X402_HANDLERS: Record<X402RouteId, (req: Request) => Promise<Response>> = {
  checkoutInfo,
  giftCardSearch: x402SearchRoute("gift_card"),
  esimSearch: x402SearchRoute("esim"),
  topupSearch: x402SearchRoute("topup"),
  productDetail,
  invoiceCreate,
  invoicePay: (req) => payInvoice(req, kickWorker),
  invoiceStatus,
  connect,
  myOrders,
  myEsims,
};
