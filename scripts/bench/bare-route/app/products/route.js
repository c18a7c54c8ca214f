// GET /products: 50 products as JSON, made once; what a catalog route costs with nothing behind it.
const products = Array.from({ length: 50 }, (_, i) => ({
  id: `product-${i}`,
  name: `Gift card ${i}`,
  kind: "gift_card",
  brand: `Brand ${i % 7}`,
  country: "US",
  currency: "USD",
  in_stock: true,
  packages: [10, 25, 50].map((v) => ({ value: String(v), price_usd: String(v), price_usdc: `${v}000000` })),
}));

export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ data: products, meta: { _total: products.length } });
}
