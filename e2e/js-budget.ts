import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";

/** Browse pages must stay light: no wallet libraries. Compressed JavaScript per page, in KB. */
export const BROWSE_JS_BUDGET_KB = 200;

export const BROWSE_PAGES = ["/", "/search?q=steam", "/products/amazon-us"] as const;

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
