/**
 * Expands the tables in `data.ts` into the demo catalog: a gift card per brand and country, an eSIM per
 * destination and region, a top-up per operator. Deterministic: the same output on every call.
 */
import fx from "@/lib/catalog/fx-rates.json";
import { countryName } from "@/lib/catalog/countries";
import { currencyExponent } from "@/lib/catalog/currency";
import type { ProductInput } from "@/lib/catalog/product-input";
import { STORE_BRAND, STORE_COLORS } from "@/lib/catalog/store-products";
import {
  codes,
  COUNTRIES,
  DENOMINATIONS,
  ESIM_BRAND,
  ESIM_BUNDLES,
  ESIM_CATEGORIES,
  ESIM_COLORS,
  ESIM_COUNTRIES,
  ESIM_PRICE_TIERS,
  ESIM_REDEMPTION,
  ESIM_REGIONS,
  GIFT_BRANDS,
  OPERATOR_COLORS,
  OPERATORS,
  TEST_BRAND,
  TEST_COLORS,
  TOPUP_AMOUNTS,
  TOPUP_CATEGORIES,
  TOPUP_REDEMPTION,
  type Colors,
  type Country,
  type EsimPrices,
  type GiftBrand,
  type Operator,
} from "./data";

type PackageInput = NonNullable<ProductInput["packages"]>[number];

const COUNTRY_BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));
const USD_PER_UNIT: Record<string, string> = fx.usdPerUnit;

function country(code: string): Country {
  const c = COUNTRY_BY_CODE.get(code);
  if (!c) throw new Error(`demo catalog: country ${code} is not in COUNTRIES`);
  return c;
}

/** English name of any country code, also those only listed in eSIM coverage. */
function nameOf(code: string): string {
  return COUNTRY_BY_CODE.get(code)?.name ?? countryName(code)?.replace(/ SAR China$/, "") ?? code;
}

const shortName = (c: Country) => c.short ?? c.name;
/** The name as it reads mid-sentence: "the United States". */
const inSentence = (c: Country) => (c.the ? `the ${c.name}` : c.name);

/** "Türk Telekom" -> "turk-telekom", "AT&T" -> "att", "Disney+" -> "disney-plus". */
export function slugify(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\+/g, " plus ")
    .replace(/[&'’.]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => vars[key] ?? whole);
}

function usdRate(currency: string): number {
  const rate = USD_PER_UNIT[currency];
  if (!rate) throw new Error(`demo catalog: no exchange rate for ${currency}`);
  return Number(rate);
}

function exponent(currency: string): number {
  const e = currencyExponent(currency);
  if (e === undefined) throw new Error(`demo catalog: unknown currency ${currency}`);
  return e;
}

/**
 * A shop price in `currency` for a US price: "x.99" prices in currencies with valuable units (7.99 GBP,
 * 149.99 EUR), round numbers of two significant figures in the others (1500 JPY, 160000 IDR).
 */
export function localPrice(usd: number, currency: string): string {
  if (currency === "USD") return usd.toFixed(2);
  const rate = usdRate(currency);
  const raw = usd / rate;
  const mag = 10 ** Math.max(0, Math.floor(Math.log10(raw)) - 1);
  if (exponent(currency) >= 2 && rate >= 0.05) {
    const v = raw < 1 ? Math.ceil(raw * 10) / 10 : raw < 100 ? Math.ceil(raw) : Math.ceil(raw / mag) * mag;
    return (v - 0.01).toFixed(2);
  }
  return String(Math.round(raw / mag) * mag);
}

/** The nearest of 1, 2, 2.5 and 5 times a power of ten, on a log scale. */
function niceNumber(x: number): number {
  const k = Math.floor(Math.log10(x));
  let best = x;
  let bestDistance = Infinity;
  for (const m of [1, 2, 2.5, 5, 10]) {
    const c = m * 10 ** k;
    const distance = Math.abs(Math.log(c / x));
    if (distance < bestDistance) [best, bestDistance] = [c, distance];
  }
  return best;
}

/**
 * An open amount of about `minUsd`..`maxUsd` in round local numbers, in steps of about one dollar or more,
 * widened to take in the fixed `denominations` sold beside it.
 */
export function localRange([minUsd, maxUsd]: [number, number], currency: string, denominations: number[] = []): { min: string; max: string; step: string } {
  const rate = usdRate(currency);
  const step = 10 ** Math.max(0, Math.floor(Math.log10(1 / rate)));
  const onStep = denominations.filter((d) => d % step === 0);
  const min = Math.min(Math.max(step, Math.ceil(niceNumber(minUsd / rate) / step) * step), ...onStep);
  const max = Math.max(min, Math.round(niceNumber(maxUsd / rate) / step) * step, ...onStep);
  return { min: String(min), max: String(max), step: String(step) };
}

/** FNV-1a: a stable hash of a slug, for the few products shown as sold out. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const soldOut = (slug: string) => hash(slug) % 50 === 7;

// ---------------------------------------------------------------------------------------------------------------

function domainFor(brand: GiftBrand, code: string): string {
  const d = typeof brand.domain === "string" ? brand.domain : (brand.domain[code] ?? brand.domain.default);
  return d.replace("{cc}", code.toLowerCase());
}

function giftCard(brand: GiftBrand, code: string, index: number): ProductInput {
  const c = country(code);
  const currency = c.currency;
  const ladder = DENOMINATIONS[currency];
  if (!ladder) throw new Error(`demo catalog: no denominations for ${currency}`);
  const amounts = brand.packs ? [] : (brand.denoms?.[currency] ?? ladder[brand.tier]);
  const packages: PackageInput[] = brand.packs
    ? brand.packs.map(([value, usd]) => ({ value, faceValue: localPrice(usd, currency) }))
    : amounts.map((n) => ({ value: String(n) }));
  const vars = { brand: brand.name, country: inSentence(c), currency, domain: domainFor(brand, code) };
  const delivery =
    brand.recipient === "email"
      ? "Sent as an e-gift to the e-mail address you give at checkout, right after payment."
      : "Delivered as a digital code right after payment.";
  const slug = `${brand.slug ?? slugify(brand.name)}-${code.toLowerCase()}`;
  return {
    slug,
    name: `${brand.product} ${shortName(c)}`,
    kind: "gift_card",
    brand: brand.name,
    country: code,
    currency,
    categories: brand.categories,
    description: `${fill(brand.description, vars)} ${delivery}`,
    redemptionInstructions: fill(brand.redemption, vars),
    recipientType: brand.recipient ?? "none",
    popularity: Math.round(brand.popularity * Math.max(0.5, 1 - 0.02 * index)),
    packages,
    ...(brand.range ? { range: localRange(brand.range, currency, amounts) } : {}),
    ...(index > 0 && soldOut(slug) ? { inStock: false } : {}), // never a brand's home market
  };
}

function esimPackages(prices: EsimPrices): PackageInput[] {
  const packages: PackageInput[] = [];
  ESIM_BUNDLES.forEach(([value, dataMb, validityDays], i) => {
    const price = prices[i];
    if (price == null) return;
    packages.push({ value, faceValue: price.toFixed(2), dataMb, validityDays });
  });
  return packages;
}

const ESIM_DATA_ONLY =
  "Data only, no phone number: call and message over WhatsApp, FaceTime or any other app. Hotspot (tethering) is allowed. " +
  "Install it before you leave; the plan starts when the eSIM first connects at your destination. Needs an unlocked, eSIM-compatible phone.";

function countryEsim([code, tier, networks]: (typeof ESIM_COUNTRIES)[number], index: number): ProductInput {
  const name = nameOf(code);
  const c = COUNTRY_BY_CODE.get(code);
  const slug = `esim-${slugify(name)}`;
  return {
    slug,
    name: `${name} eSIM`,
    kind: "esim",
    brand: ESIM_BRAND,
    country: code,
    currency: "USD",
    categories: ESIM_CATEGORIES,
    description: `Prepaid travel data eSIM for ${c ? inSentence(c) : name}. Connects to ${networks} with 4G and 5G where available. ${ESIM_DATA_ONLY}`,
    redemptionInstructions: ESIM_REDEMPTION,
    recipientType: "none",
    popularity: Math.max(150, 680 - 12 * index),
    packages: esimPackages(ESIM_PRICE_TIERS[tier]),
    ...(soldOut(slug) ? { inStock: false } : {}),
  };
}

function regionalEsim(region: (typeof ESIM_REGIONS)[number]): ProductInput {
  const coverage = codes(region.countries);
  const names = coverage.map(nameOf);
  const slug = `esim-${region.slug}`;
  return {
    slug,
    name: `${region.name} eSIM (${coverage.length} countries)`,
    kind: "esim",
    brand: ESIM_BRAND,
    coverage,
    region: region.name,
    currency: "USD",
    categories: ESIM_CATEGORIES,
    description:
      `One data eSIM for ${coverage.length} countries in ${region.name === "Global" ? "the world" : region.name}: ${names.join(", ")}. ` +
      `It switches to a local partner network by itself when you cross a border, with 4G and 5G where available. ${ESIM_DATA_ONLY}`,
    redemptionInstructions: ESIM_REDEMPTION,
    recipientType: "none",
    popularity: region.popularity,
    packages: esimPackages(region.prices),
    ...(soldOut(slug) ? { inStock: false } : {}),
  };
}

function topup(op: Operator): ProductInput {
  const c = country(op.country);
  const amounts = TOPUP_AMOUNTS[op.country];
  if (!amounts) throw new Error(`demo catalog: no top-up amounts for ${op.country}`);
  const prefixes = codes(op.prefixes);
  const label = op.label ?? op.brand;
  const packages: PackageInput[] = amounts.amounts.map((n) => ({ value: String(n) }));
  for (const [value, price, dataMb, days] of op.bundles ?? []) {
    packages.push({ value, faceValue: String(price), ...(dataMb ? { dataMb } : {}), validityDays: days });
  }
  const slug = `${slugify(op.brand)}-${slugify(shortName(c))}-topup`;
  const data = op.bundles?.length ? ` Besides airtime you can buy ${label} data bundles, added to the line straight away.` : "";
  return {
    slug,
    name: `${label} ${shortName(c)} Top-up`,
    kind: "topup",
    brand: op.brand,
    country: op.country,
    currency: c.currency,
    categories: op.bundles?.length ? [...TOPUP_CATEGORIES, "data"] : TOPUP_CATEGORIES,
    description:
      `Prepaid airtime for ${label} mobile numbers in ${inSentence(c)}, sent straight to the phone: the credit works for calls, texts and data.${data}` +
      ` Top up your own line or send credit to family and friends in ${inSentence(c)} in seconds.`,
    redemptionInstructions: fill(TOPUP_REDEMPTION, { operator: label, country: inSentence(c), example: prefixes[0] ?? "+" }),
    recipientType: "phone_number",
    phonePrefixes: prefixes,
    popularity: op.popularity,
    packages,
    ...(amounts.range ? { range: { min: String(amounts.range[0]), max: String(amounts.range[1]), step: String(amounts.range[2]) } } : {}),
    ...(soldOut(slug) ? { inStock: false } : {}),
  };
}

/** The demo catalog: every gift card, eSIM and top-up product. */
export function demoCatalog(): ProductInput[] {
  const products: ProductInput[] = [];
  for (const brand of GIFT_BRANDS) codes(brand.countries).forEach((code, i) => products.push(giftCard(brand, code, i)));
  ESIM_COUNTRIES.forEach((entry, i) => products.push(countryEsim(entry, i)));
  for (const region of ESIM_REGIONS) products.push(regionalEsim(region));
  for (const op of OPERATORS) products.push(topup(op));
  return products;
}

// ---------------------------------------------------------------------------------------------------------------

const TEST_AMOUNTS: PackageInput[] = ["10", "20", "50", "100"].map((value) => ({ value }));
const TEST_NOTE = "For integration tests only: it never delivers real value.";

function testProduct(p: Pick<ProductInput, "slug" | "name" | "kind" | "description" | "redemptionInstructions"> & Partial<ProductInput>): ProductInput {
  return {
    brand: TEST_BRAND,
    country: "US",
    currency: "USD",
    categories: ["test"],
    recipientType: "none",
    isTest: true,
    popularity: 0,
    packages: TEST_AMOUNTS,
    ...p,
  };
}

/** The fixed products the integration tests buy. */
export function testFamily(): ProductInput[] {
  return [
    testProduct({
      slug: "test-gift-card-code",
      name: "Test Gift Card (Code and PIN)",
      kind: "gift_card",
      description: `A test gift card delivered as a code with a PIN. ${TEST_NOTE}`,
      redemptionInstructions: "Nothing to redeem: the code and PIN are made up for the test.",
    }),
    testProduct({
      slug: "test-gift-card-code-fail",
      name: "Test Gift Card (Failing)",
      kind: "gift_card",
      description: `A test gift card whose orders always fail at the supplier, to exercise refunds. ${TEST_NOTE}`,
      redemptionInstructions: "Nothing to redeem: every order of this product fails.",
    }),
    testProduct({
      slug: "test-gift-card-link",
      name: "Test Gift Card (Link)",
      kind: "gift_card",
      description: `A test gift card delivered as a redemption link. ${TEST_NOTE}`,
      redemptionInstructions: "Nothing to redeem: the link is made up for the test.",
    }),
    testProduct({
      slug: "test-phone-refill",
      name: "Test Phone Refill",
      kind: "topup",
      recipientType: "phone_number",
      phonePrefixes: ["+1"],
      description: `A test mobile top-up for a +1 number. ${TEST_NOTE}`,
      redemptionInstructions: "Nothing is sent to the number: the top-up is simulated.",
    }),
    testProduct({
      slug: "test-phone-refill-fail",
      name: "Test Phone Refill (Failing)",
      kind: "topup",
      recipientType: "phone_number",
      phonePrefixes: ["+1"],
      description: `A test mobile top-up whose orders always fail, to exercise refunds. ${TEST_NOTE}`,
      redemptionInstructions: "Nothing is sent to the number: every order of this product fails.",
    }),
    testProduct({
      slug: "test-esim-product",
      name: "Test eSIM",
      kind: "esim",
      coverage: ["US"],
      description: `A test data eSIM for the United States. ${TEST_NOTE}`,
      redemptionInstructions: "Nothing to install: the QR code and activation code are made up for the test.",
      packages: [
        { value: "1GB, 7 Days", faceValue: "10", dataMb: 1024, validityDays: 7 },
        { value: "3GB, 30 Days", faceValue: "20", dataMb: 3 * 1024, validityDays: 30 },
        { value: "10GB, 30 Days", faceValue: "50", dataMb: 10 * 1024, validityDays: 30 },
        { value: "Unlimited, 30 Days", faceValue: "100", dataMb: null, validityDays: 30 },
      ],
    }),
  ];
}

/** Card colours of every brand in the demo catalog, the test family and the shop's own, by brand name. */
export function brandColors(): Record<string, Colors> {
  const colors: Record<string, Colors> = {};
  for (const brand of GIFT_BRANDS) colors[brand.name] = { ...brand.colors };
  colors[ESIM_BRAND] = { ...ESIM_COLORS };
  for (const [brand, c] of Object.entries(OPERATOR_COLORS)) colors[brand] = { ...c };
  colors[TEST_BRAND] = { ...TEST_COLORS };
  colors[STORE_BRAND] = { ...STORE_COLORS };
  return colors;
}
