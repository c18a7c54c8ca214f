/** Separator of the package id form `<product_id><&><value>` that merchant clients send. */
export const PACKAGE_ID_SEPARATOR = "<&>";

export function packageId(productId: string, value: string): string {
  return `${productId}${PACKAGE_ID_SEPARATOR}${value}`;
}

/** Splits `<product_id><&><value>`; undefined when the string is not in that form. */
export function parsePackageId(id: string): { productId: string; value: string } | undefined {
  const at = id.indexOf(PACKAGE_ID_SEPARATOR);
  if (at <= 0) return undefined;
  const value = id.slice(at + PACKAGE_ID_SEPARATOR.length);
  return value ? { productId: id.slice(0, at), value } : undefined;
}
