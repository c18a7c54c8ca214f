// The catalog: products, search, prices, exchange rates, the operator's stock of codes. What other features import from it.
import type { Db } from "@/lib/platform/db";
export { search, searchIds, searchQuerySchema, MAX_PAGE_SIZE, type SearchQuery, type SearchResult } from "./search";
export { getProduct, getProducts, suggestSlugs, countryLabel } from "./get-product";
export { catalogFacts, listCountries, listPopularBrands, listFeatured, type CatalogFacts, type Country, type BrandSummary } from "./browse";
export { countryName, isCountryCode } from "./countries";
export { formatUsd, formatUsdc, formatUsdcDecimal, formatFaceValue, formatPackage, priceUsdc } from "./pricing";
export { packageId, parsePackageId } from "./package-id";
export { PRODUCT_KINDS, RECIPIENT_TYPES, type ProductKind, type RecipientType } from "./product-input";
export { KIND_LABELS, type Product, type ProductPackage, type ProductRange, type ProductSummary } from "./types";
export { catalogChanged } from "./snapshot";
export { currencyExponent } from "./currency";
export { fxSource, type FxSource, type Rate } from "./fx";
export { heldFxRates, heldFxWarning, refreshFxRatesIfDue, syncFxSource, type HeldFxRates } from "./fx-store";
export { coinPrice, confirmCoinPrice, heldCoinPrices, heldCoinPriceWarning, refreshCoinPricesIfDue, type Coin, type HeldCoinPrice } from "./coin-prices";
export { isIccid, luhnCheckDigit } from "./iccid";
export { importCatalog, type ImportReport, type RejectedRow } from "./import";
export { centsAt, rangeCostCents } from "./pricing";
export { rangePricer } from "./product-pricer";
export { regionParam } from "./region-param";
export { releaseCodes, reserveCode, sellCode, stockCodeSchema, type StockImportReport, type StockLevel } from "./stock";
export { STORE_GIFT_CARD_SLUG } from "./store-products";
export { demoSupply } from "./supply";

/**
 * The demo catalog into an empty database when the mode asks for it, and the shop's own products, once
 * (`./seed.ts`). Its data (hundreds of products) is loaded only when a database is opened with it.
 */
export async function seedCatalogOnce(db: Db): Promise<void> {
  return (await import("./seed")).seedCatalogOnce(db);
}
