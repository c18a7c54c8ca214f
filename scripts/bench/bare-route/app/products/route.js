// GET /products: 50 products as JSON, made once: what a catalog route costs with nothing behind it. The products
// have the merchant API's shape and about its size (descriptions, instructions, packages), so that the benchmark
// compares the work behind the two routes, not the bytes they send.
const words = "gift card redeem online balance store account code digital wallet games apps music movies".split(" ");
const text = (n, seed) => Array.from({ length: n }, (_, i) => words[(seed * 7 + i * 3) % words.length]).join(" ");

const products = Array.from({ length: 50 }, (_, i) => ({
  id: `brand-${i}-us`,
  name: `Brand ${i} Gift Card`,
  type: "gift_card",
  brand: `Brand ${i}`,
  country_code: "US",
  country_name: "United States",
  currency: "USD",
  categories: ["Entertainment", "Shopping"],
  created_time: "2026-01-01T00:00:00.000Z",
  recipient_type: "none",
  image: `https://shop.example/img/products/brand-${i}-us.svg`,
  in_stock: true,
  is_test: false,
  description: text(60, i),
  redemption_instructions: text(45, i + 1),
  packages: [10, 25, 50, 100].map((v) => ({
    id: `brand-${i}-us:${v}`,
    package_id: `brand-${i}-us:${v}`,
    value: String(v),
    amount: v,
    price: v * 100 + 37,
    in_stock: true,
  })),
}));

export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ meta: { _endpoint: "/products", start: 0, limit: 50, count: 50, total: 790 }, data: products });
}
