/**
 * Every route of the /x402 API that this server serves, with its fee and the headers it accepts: the one table the fee wrapper,
 * the route catalog (`GET /x402/checkout/info`) and the docs read. Fees are USDC atomic units (6 decimals).
 */
export const X402_ROUTES = {
  checkoutInfo: {
    method: "GET",
    path: "/x402/checkout/info",
    fee: 1000n,
    headers: ["PAYMENT-SIGNATURE", "X-Access-Token"],
    description: "This route catalog: networks, routes, fees, wallet rules.",
  },
  giftCardSearch: {
    method: "GET",
    path: "/x402/gift-cards/search",
    fee: 2000n,
    headers: ["PAYMENT-SIGNATURE", "X-Access-Token"],
    query: ["q", "country"],
    description: "Search gift cards.",
  },
  esimSearch: {
    method: "GET",
    path: "/x402/esims/search",
    fee: 2000n,
    headers: ["PAYMENT-SIGNATURE", "X-Access-Token"],
    query: ["q", "country"],
    description: "Search eSIMs by destination country or region.",
  },
  topupSearch: {
    method: "GET",
    path: "/x402/topups/search",
    fee: 2000n,
    headers: ["PAYMENT-SIGNATURE", "X-Access-Token"],
    query: ["q", "country"],
    description: "Search mobile top-ups.",
  },
  productDetail: {
    method: "GET",
    path: "/x402/products/detail",
    fee: 1000n,
    headers: ["PAYMENT-SIGNATURE", "X-Access-Token"],
    query: ["slug"],
    description: "Packages, recipient requirements and a suggested invoice line.",
  },
  invoiceCreate: {
    method: "POST",
    path: "/x402/invoice/create",
    fee: 2000n,
    headers: ["PAYMENT-SIGNATURE", "X-Access-Token", "SIGN-IN-WITH-X", "X-Service-Affiliate-Id"],
    description: "Quote a cart and lock its USDC price.",
  },
  invoicePay: {
    method: "POST",
    path: "/x402/invoice/pay",
    fee: null,
    headers: ["PAYMENT-SIGNATURE"],
    description: "Pay an invoice: its locked price, 0.01 to 1000 USDC.",
  },
  invoiceStatus: {
    method: "GET",
    path: "/x402/invoice/status",
    fee: 1000n,
    headers: ["PAYMENT-SIGNATURE", "X-Access-Token", "SIGN-IN-WITH-X"],
    query: ["invoice_id"],
    description: "Fulfilment status; codes for the paying wallet.",
  },
  connect: { method: "POST", path: "/x402/connect", fee: null, headers: ["SIGN-IN-WITH-X"], description: "Turn one SIWX signature into a session token." },
  myOrders: {
    method: "GET",
    path: "/x402/my/orders",
    fee: null,
    headers: ["X-Access-Token", "SIGN-IN-WITH-X"],
    query: ["start", "limit"],
    description: "Orders of the signed-in wallet.",
  },
  myEsims: { method: "GET", path: "/x402/my/esims", fee: null, headers: ["X-Access-Token", "SIGN-IN-WITH-X"], description: "eSIMs of the signed-in wallet." },
} as const;

export type X402RouteId = keyof typeof X402_ROUTES;

/** The OpenAPI document of these routes (lib/openapi/x402.ts): free, so not in the table of paid routes. */
export const X402_OPENAPI_PATH = "/x402/openapi.json";

/** Headers browsers may read from /x402 responses (x402 clients in web pages need them). */
export const EXPOSED_HEADERS = "PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-Access-Token";
