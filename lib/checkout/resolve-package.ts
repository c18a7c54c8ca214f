import { parsePackageId, type Product, currencyExponent, rangePricer } from "@/lib/catalog";
import { parseMinorUnits, formatMinorUnits } from "@/lib/platform/money";
import { DomainError } from "@/lib/platform/errors";

export type ResolvedPackage = { value: string; faceValueMinor: bigint; priceUsdc: bigint };

/**
 * The package an item names: a package value exactly as product detail gives it, the `<product_id><&><value>`
 * package id form, or an amount within the product's open range.
 */
export function resolvePackage(product: Product, packageValue: string, path: (string | number)[]): ResolvedPackage {
  let value = packageValue;
  const asId = parsePackageId(packageValue);
  if (asId) {
    if (asId.productId !== product.slug) {
      throw new DomainError("unknown_package", `the package id names ${asId.productId}, not ${product.slug}`, { path });
    }
    value = asId.value;
  }
  const exponent = currencyExponent(product.currency) ?? 2;
  const minor = parseMinorUnits(value, exponent);
  // An amount written another way ("25.00", "025") is the package of that amount where there is one: its stock and
  // its price (an upstream package's cost), never the open range's.
  const pkg =
    product.packages.find((p) => p.value === value) ??
    (minor !== undefined ? product.packages.find((p) => p.value === formatMinorUnits(minor, exponent)) : undefined);
  if (pkg) {
    // A package the supplier cannot deliver now (an inventory package whose codes are all sold is refused when its
    // code is reserved, where two buyers racing for the last code are told apart).
    if (pkg.stock === 0 && product.supplier !== "inventory") {
      throw new DomainError("out_of_stock", `${product.name} ${pkg.value} is out of stock`, { path });
    }
    return { value: pkg.value, faceValueMinor: pkg.faceValueMinor, priceUsdc: pkg.priceUsdc };
  }
  if (product.range) {
    const { minMinor, maxMinor, stepMinor } = product.range;
    if (minor !== undefined && minor >= minMinor && minor <= maxMinor && (minor - minMinor) % stepMinor === 0n) {
      return {
        value: formatMinorUnits(minor, exponent),
        faceValueMinor: minor,
        priceUsdc: rangePricer({ currency: product.currency, supplier: product.supplier, rangeCostRate: product.range.costRate })(minor),
      };
    }
  }
  const offered = product.packages.map((p) => p.value);
  const range = product.range ? ` or an amount from ${product.range.min} to ${product.range.max} ${product.currency} in steps of ${product.range.step}` : "";
  // An amount off a product's range is a bad value; anything else names no package.
  const amountOffRange = product.range !== null && minor !== undefined;
  throw new DomainError(
    amountOffRange ? "package_out_of_range" : "unknown_package",
    `${JSON.stringify(packageValue)} is not a package of ${product.slug}. Use one of ${offered.map((v) => JSON.stringify(v)).join(", ") || "none"}${range}`,
    {
      path,
      details: { packages: offered, ...(product.range ? { range: { min: product.range.min, max: product.range.max, step: product.range.step } } : {}) },
    },
  );
}
