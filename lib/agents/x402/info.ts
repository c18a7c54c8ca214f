import { usdcToDecimal } from "@/lib/platform/money";
import type { PaymentNetwork } from "@/lib/platform/networks";
import { nextStep, X402_OPENAPI_PATH, X402_ROUTES } from "@/lib/api/x402";

/** The body of GET /x402/checkout/info: networks, every route with its fee and headers, the OpenAPI document, and the wallet rules. */
export function checkoutInfo(origin: string, networks: PaymentNetwork[], mode: string) {
  return {
    service: "x402 Storefront",
    version: "1.0.0",
    network_mode: mode,
    networks: networks.map((n) => ({
      network: n.network,
      name: n.name,
      asset: n.kind === "evm" ? n.usdc.address : n.usdc.mint,
      decimals: n.usdc.decimals,
      pay_to: n.payTo,
    })),
    routes: Object.values(X402_ROUTES).map((r) => ({
      method: r.method,
      path: r.path,
      url: new URL(r.path, origin).toString(),
      fee_usd: r.fee === null ? null : usdcToDecimal(r.fee),
      fee_atomic: r.fee === null ? null : r.fee.toString(),
      headers: r.headers,
      ...("query" in r ? { query: r.query } : {}),
      description: r.description,
    })),
    openapi: new URL(X402_OPENAPI_PATH, origin).toString(),
    wallet_rules: [
      "Your wallet is your identity: no account or API key.",
      "The wallet that pays an invoice is the only one that sees its codes, orders and eSIMs.",
      "Prove the wallet with SIGN-IN-WITH-X on a call, or once with POST /x402/connect for an X-Access-Token.",
      "An X-Access-Token waives micro-fees and repeated signing until it expires; it never pays an invoice.",
      "Invoice creation takes the paying wallet from the fee's payer, SIGN-IN-WITH-X, or X-Access-Token.",
      "Every 402 of a route that takes SIGN-IN-WITH-X carries a fresh sign-in challenge (extensions.sign-in-with-x); a sign-in that is malformed or refused is answered with such a 402 and the reason in error.",
    ],
    next_step: nextStep(origin, "GET", "/x402/gift-cards/search?q=*"),
  };
}
