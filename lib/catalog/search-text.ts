import { countryName } from "./countries";
import { normalizeText } from "./normalize";
import type { ProductKind } from "./product-input";

const KIND_WORDS: Record<ProductKind, string> = {
  gift_card: "gift card giftcard voucher",
  esim: "esim e sim data roaming travel",
  topup: "top up topup mobile recharge refill airtime",
};

/**
 * The text a product is found by: name, brand (also written as one word: "googleplay"), categories,
 * the names of its countries and region, and words for its kind.
 */
export function buildSearchText(p: {
  name: string;
  brand: string;
  kind: ProductKind;
  categories: string[];
  coverage: string[];
  region?: string | null;
}): string {
  const brand = normalizeText(p.brand);
  const countries = p.coverage.map((c) => countryName(c) ?? c);
  const parts = [p.name, p.brand, brand.replace(/ /g, ""), ...p.categories, p.region ?? "", ...countries, KIND_WORDS[p.kind]];
  const words = normalizeText(parts.join(" ")).split(" ");
  return [...new Set(words)].join(" ");
}
