import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";

/** Browse pages must stay light: no wallet libraries. Compressed JavaScript per page, in KB. */
export const BROWSE_JS_BUDGET_KB = 200;

export const BROWSE_PAGES = ["/", "/search?q=steam", "/products/amazon-us"] as const;

/** The cart with an item, before the shopper picks a wallet family: no wallet stack yet. Compressed KB. */
export const CART_JS_BUDGET_KB = 250;

/** One cart line as the cart keeps it in the browser's storage (components/cart/cart-store.ts). */
export const CART_LINE = {
  productId: "amazon-us",
  packageValue: "25",
  quantity: 1,
  name: "Amazon.com Gift Card",
  image: "/img/products/amazon-us.svg",
  unitPriceUsdc: "25000000",
};

/**
 * Loads a page in a fresh context and adds up the JavaScript it fetched, gzip-compressed
 * (measured here, so the figure does not depend on whether the server compresses).
 */
export async function measurePageJs(page: Page, url: string): Promise<{ files: number; rawKb: number; gzipKb: number }> {
  const bodies: Promise<Buffer | null>[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() === "script") bodies.push(res.body().catch(() => null));
  });
  await page.goto(url, { waitUntil: "networkidle" });
  const files = (await Promise.all(bodies)).filter((b): b is Buffer => b !== null);
  const raw = files.reduce((n, b) => n + b.length, 0);
  const gzip = files.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0);
  return { files: files.length, rawKb: raw / 1024, gzipKb: gzip / 1024 };
}
