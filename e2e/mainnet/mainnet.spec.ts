import { expect, test } from "@playwright/test";

// A shop started in mainnet mode, on a fresh database, with stand-in payment settings (see playwright.config.ts):
// real USDC must never meet a demo or test product. Nothing here pays: no chain is reached.

test("a mainnet shop lists no demo or test products and has no page for them", async ({ page, request }) => {
  expect((await request.get("/")).status()).toBe(200);
  for (const slug of ["test-gift-card-code", "test-gift-card-code-fail", "steam-us", "esim-japan"]) {
    expect((await request.get(`/products/${slug}`)).status(), slug).toBe(404);
  }
  for (const q of ["test", "steam", "esim"]) {
    await page.goto(`/search?q=${q}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.locator('a[href^="/products/"]'), q).toHaveCount(0);
  }
  // The devnet's helpers do not exist on a real network.
  expect((await request.get("/api/dev/devnet")).status()).toBe(404);
});

test("a mainnet shop offers no demo merchant: not on the sign-in page, and its route refuses with 404", async ({ page, request, baseURL }) => {
  await page.goto("/dashboard/sign-in");
  await expect(page.getByRole("heading", { level: 1, name: "Merchant sign-in" })).toBeVisible();
  await expect(page.getByText("The shop's operator creates merchant accounts")).toBeVisible();
  await expect(page.getByRole("button", { name: "Create a demo merchant" })).toHaveCount(0);
  expect(await page.content()).not.toContain("demo merchant");
  // Refused by the mode, even as the page itself would post it.
  const made = await request.post("/api/dev/demo-merchant", { headers: { Origin: baseURL! } });
  expect(made.status()).toBe(404);
  expect(made.headers()["set-cookie"]).toBeUndefined();
});

// This shop is the standalone server by itself (node .next/standalone/server.js, as the Docker image runs it).
test("the standalone server serves the pages with their assets, public files and the health route", async ({ page, request }) => {
  const assets: number[] = [];
  page.on("response", (r) => {
    if (r.url().includes("/_next/static/")) assets.push(r.status());
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(assets.length).toBeGreaterThan(0);
  expect(assets.every((s) => s === 200)).toBe(true);
  expect((await request.get("/robots.txt")).status()).toBe(200);
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: "ok", mode: "mainnet" });
});
