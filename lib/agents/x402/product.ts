import { getProduct, suggestSlugs, type Product, isIccid } from "@/lib/catalog";
import { usdcToDecimal } from "@/lib/platform/money";
import { ApiError } from "@/lib/platform/http/api-error";
import { nextStep } from "@/lib/api/x402";

export function requireSlug(url: URL): string {
  const slug = url.searchParams.get("slug")?.trim();
  if (!slug) throw new ApiError(400, "MISSING_FIELD", "slug is required: GET /x402/products/detail?slug=<slug from search>", { field: "slug" });
  if (slug.length > 80) throw new ApiError(400, "INVALID_PARAMETER", "slug: must be at most 80 characters", { field: "slug" });
  return slug;
}

/** The optional `iccid` of an eSIM to top up: the packages are then offered for that eSIM. */
export function optionalIccid(url: URL): string | undefined {
  const iccid = url.searchParams.get("iccid")?.trim();
  if (!iccid) return undefined;
  if (!isIccid(iccid)) {
    throw new ApiError(400, "INVALID_PARAMETER", "iccid: an eSIM's ICCID is 19 or 20 digits starting 89, with a valid check digit", { field: "iccid" });
  }
  return iccid;
}

/** Validates the query before any fee is charged. */
export function checkDetailQuery(url: URL): void {
  requireSlug(url);
  optionalIccid(url);
}

const ESIM_TOPUP_HELP =
  "To add a bundle to an eSIM the paying wallet holds, give its ICCID as refill_input (see GET /x402/my/esims); leave refill_input out to buy a new eSIM.";

const RECIPIENT_HELP = {
  none: null,
  phone_number: "The phone number to top up, in international E.164 format (+ and country code), at most 100 characters.",
  email: "The recipient's e-mail address, at most 100 characters.",
} as const;

function exampleRecipient(p: Product): string | undefined {
  if (p.recipientType === "phone_number") return `${p.phonePrefixes[0] ?? "+1"}...`;
  if (p.recipientType === "email") return "name@example.com";
  return undefined;
}

/** The body of GET /x402/products/detail: packages as invoice creation takes them, and the next call. */
export async function productDetailResponse(url: URL, origin: string) {
  const slug = requireSlug(url);
  const iccid = optionalIccid(url);
  const p = await getProduct(slug);
  if (!p) {
    const suggestions = await suggestSlugs(slug);
    throw new ApiError(404, "PRODUCT_NOT_FOUND", `No product has the slug ${JSON.stringify(slug)}.`, {
      suggestions: suggestions.map((s) => ({ slug: s.slug, name: s.name, url: nextStep(origin, "GET", `/x402/products/detail?slug=${s.slug}`).url })),
    });
  }
  const packages = p.packages.map((pkg) => ({
    package_value: pkg.value,
    package_id: pkg.id,
    face_value: pkg.faceValue,
    currency: p.currency,
    price_usd: usdcToDecimal(pkg.priceUsdc),
    price_usdc: usdcToDecimal(pkg.priceUsdc),
    price_usdc_atomic: pkg.priceUsdc.toString(),
    in_stock: p.inStock && pkg.stock !== 0,
    ...(pkg.dataMb !== null || pkg.validityDays !== null ? { data_mb: pkg.dataMb, validity_days: pkg.validityDays } : {}),
  }));
  const first = (p.packages.find((pkg) => pkg.stock !== 0) ?? p.packages[0])?.value ?? p.range?.min;
  if (iccid && p.kind !== "esim") {
    throw new ApiError(400, "INVALID_PARAMETER", `iccid: ${p.slug} is not an eSIM, so there is nothing to top up`, { field: "iccid" });
  }
  const example = iccid ?? exampleRecipient(p);
  const lineItem = first === undefined ? null : { product_id: p.slug, package_value: first, ...(example ? { refill_input: example } : {}) };
  return {
    product: {
      slug: p.slug,
      name: p.name,
      kind: p.kind,
      brand: p.brand,
      country: p.country,
      coverage: p.coverage,
      region: p.region,
      currency: p.currency,
      categories: p.categories,
      description: p.description,
      redemption_instructions: p.redemptionInstructions,
      image: new URL(p.image, origin).toString(),
      in_stock: p.inStock,
    },
    recipient: {
      required: p.recipientType !== "none",
      type: p.recipientType,
      field: p.recipientType === "none" ? null : "refill_input",
      description: RECIPIENT_HELP[p.recipientType],
      ...(p.phonePrefixes.length ? { phone_prefixes: p.phonePrefixes } : {}),
      ...(p.kind === "esim" ? { esim_topup: { field: "refill_input", description: ESIM_TOPUP_HELP, ...(iccid ? { iccid } : {}) } } : {}),
    },
    packages,
    range: p.range
      ? {
          min: p.range.min,
          max: p.range.max,
          step: p.range.step,
          currency: p.currency,
          min_price_usd: usdcToDecimal(p.range.minPriceUsdc),
          max_price_usd: usdcToDecimal(p.range.maxPriceUsdc),
          note: "Any amount from min to max in steps of step; give it as package_value.",
        }
      : null,
    suggested_line_item: lineItem,
    next_step: nextStep(origin, "POST", "/x402/invoice/create", lineItem ? { items: [lineItem] } : undefined),
  };
}
