import type { Db } from "@/lib/platform/db";
import { productInputSchema, type ProductInput } from "@/lib/catalog/product-input";
import { upsertProducts } from "@/lib/catalog/store";

const giftCard = (slug: string, brand: string, name: string, country: string, currency: string, extra: Partial<ProductInput> = {}): ProductInput => ({
  slug,
  name,
  kind: "gift_card",
  brand,
  country,
  currency,
  categories: ["gaming"],
  description: `${name} for ${country}.`,
  redemptionInstructions: "Redeem in the app.",
  packages: [{ value: "10" }, { value: "25" }, { value: "50" }],
  ...extra,
});

/** A small catalog whose ranking outcomes are known. */
export const fixtureProducts: ProductInput[] = [
  giftCard("steam-us", "Steam", "Steam Wallet Card US", "US", "USD", { popularity: 900 }),
  giftCard("steam-de", "Steam", "Steam Wallet Card Germany", "DE", "EUR", { popularity: 700 }),
  giftCard("steamboat-tours-us", "Steamboat Tours", "Steamboat Tours Gift Card", "US", "USD", { categories: ["travel"], popularity: 990 }),
  giftCard("amazon-us", "Amazon", "Amazon Gift Card US", "US", "USD", { categories: ["shopping"], popularity: 1000 }),
  giftCard("amazon-jp", "Amazon", "Amazon Gift Card Japan", "JP", "JPY", {
    categories: ["shopping"],
    popularity: 800,
    packages: [{ value: "1000" }, { value: "5000" }],
  }),
  giftCard("google-play-us", "Google Play", "Google Play Gift Code US", "US", "USD", { categories: ["apps", "gaming"], popularity: 950 }),
  giftCard("playstation-gb", "PlayStation", "PlayStation Store Gift Card UK", "GB", "GBP", { popularity: 850, inStock: false }),
  giftCard("cafe-creme-fr", "Café Crème", "Café Crème Carte Cadeau", "FR", "EUR", { categories: ["food"], popularity: 10 }),
  giftCard("visa-prepaid-us", "Visa Prepaid", "Visa Prepaid Card US", "US", "USD", {
    categories: ["prepaid-cards"],
    packages: [],
    range: { min: "5", max: "500", step: "0.01" },
  }),
  {
    slug: "esim-europe",
    name: "Europe eSIM",
    kind: "esim",
    brand: "Storefront eSIM",
    coverage: ["FR", "DE", "IT", "ES"],
    region: "Europe",
    currency: "USD",
    categories: ["esim", "data", "travel"],
    description: "Data in Europe.",
    redemptionInstructions: "Scan the QR code.",
    packages: [
      { value: "3GB, 30 Days", faceValue: "9.5", dataMb: 3072, validityDays: 30 },
      { value: "Unlimited, 7 Days", faceValue: "29", dataMb: null, validityDays: 7 },
    ],
    popularity: 600,
  },
  {
    slug: "mtn-nigeria-topup",
    name: "MTN Nigeria Top-up",
    kind: "topup",
    brand: "MTN",
    country: "NG",
    currency: "NGN",
    categories: ["mobile", "airtime"],
    description: "Airtime for MTN Nigeria.",
    redemptionInstructions: "Credited within minutes.",
    recipientType: "phone_number",
    phonePrefixes: ["+234803", "+234806"],
    packages: [{ value: "1000" }, { value: "5000" }],
    popularity: 500,
  },
  {
    slug: "test-gift-card-code",
    name: "Test Gift Card (code)",
    kind: "gift_card",
    brand: "Test Products",
    country: "US",
    currency: "USD",
    categories: ["test"],
    description: "For integration tests.",
    redemptionInstructions: "None.",
    isTest: true,
    packages: [{ value: "10" }, { value: "20" }, { value: "50" }, { value: "100" }],
  },
];

/** Imports every fixture product into a test database. */
export async function importFixtures(db: Db): Promise<void> {
  await upsertProducts(
    db,
    fixtureProducts.map((p) => productInputSchema.parse(p)),
  );
}
