export { search, searchIds, searchQuerySchema, MAX_PAGE_SIZE, type SearchQuery, type SearchResult } from "./search";
export { getProduct, getProducts, suggestSlugs, countryLabel } from "./get-product";
export { catalogFacts, listCountries, listPopularBrands, listFeatured, type CatalogFacts, type Country, type BrandSummary } from "./browse";
export { countryName, isCountryCode } from "./countries";
export { formatUsd, formatUsdc, formatUsdcDecimal, formatFaceValue, formatPackage, priceUsdc } from "./pricing";
export { packageId, parsePackageId } from "./package-id";
export { PRODUCT_KINDS, RECIPIENT_TYPES, type ProductKind, type RecipientType } from "./product-input";
export { KIND_LABELS, type Product, type ProductPackage, type ProductRange, type ProductSummary } from "./types";
export { catalogChanged } from "./snapshot";
