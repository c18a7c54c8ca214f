import type { ProductKind, RecipientType } from "./product-input";

/** A product as lists show it. Prices are USDC atomic units (6 decimals) and equal US cents * 10_000. */
export type ProductSummary = {
  slug: string;
  name: string;
  kind: ProductKind;
  brand: string;
  country: string | null;
  coverage: string[];
  region: string | null;
  currency: string;
  image: string;
  inStock: boolean;
  /** Lowest and highest price over packages and range; null when the product has neither. */
  priceFromUsdc: bigint | null;
  priceToUsdc: bigint | null;
};

export type ProductPackage = {
  /** The package id both APIs accept: `<product_id><&><value>`. */
  id: string;
  value: string;
  faceValueMinor: bigint;
  /** Face value as a decimal string in the product currency ("25", "9.99"). */
  faceValue: string;
  priceUsdc: bigint;
  dataMb: number | null;
  validityDays: number | null;
  /** Codes left for an inventory product's package (0 = sold out); null when the supplier issues codes on demand. */
  stock: number | null;
};

export type ProductRange = {
  minMinor: bigint;
  maxMinor: bigint;
  stepMinor: bigint;
  min: string;
  max: string;
  step: string;
  minPriceUsdc: bigint;
  maxPriceUsdc: bigint;
  /** What the upstream charges per unit of the currency, in US dollars (a decimal string); null when it is not bought upstream. */
  costRate: string | null;
};

export type Product = ProductSummary & {
  categories: string[];
  description: string;
  redemptionInstructions: string;
  recipientType: RecipientType;
  phonePrefixes: string[];
  isTest: boolean;
  /**
   * Who fulfils orders: `demo` issues codes on demand, `inventory` sells codes the operator imported, `upstream` buys
   * from the upstream supplier, `store` is the shop itself (its own gift card, sold at face value).
   */
  supplier: "demo" | "inventory" | "upstream" | "store";
  packages: ProductPackage[];
  range: ProductRange | null;
  createdAt: Date;
};

export const KIND_LABELS: Record<ProductKind, { one: string; many: string }> = {
  gift_card: { one: "Gift card", many: "Gift cards" },
  esim: { one: "eSIM", many: "eSIMs" },
  topup: { one: "Mobile top-up", many: "Mobile top-ups" },
};
