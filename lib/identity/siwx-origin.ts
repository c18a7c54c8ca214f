/**
 * Reads the shop's public origin for SIWX binding, refusing what cannot be one (a path, credentials, another
 * scheme): the same rule as the package's own server extension. Throws: the origin is configuration, not client input.
 */
export function parseSiwxOrigin(origin: string): URL {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new Error(`SIWX origin ${JSON.stringify(origin)} is not a URL`);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password || url.pathname !== "/" || url.search || url.hash) {
    throw new Error(`SIWX origin ${JSON.stringify(origin)} must be a bare http(s) origin such as https://shop.example`);
  }
  return new URL(url.origin);
}
