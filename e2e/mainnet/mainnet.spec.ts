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
  // The devnet's first steps (test USDC, a demo merchant) are not offered on a shop that takes real money.
  await expect(page.getByRole("heading", { name: "First ten minutes on this devnet" })).toHaveCount(0);
  expect(assets.length).toBeGreaterThan(0);
  expect(assets.every((s) => s === 200)).toBe(true);
  expect((await request.get("/robots.txt")).status()).toBe(200);
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: "ok", mode: "mainnet" });
});

// A browser without a wallet extension, on a shop without the devnet's burner or WalletConnect: no EVM wallet to offer.
test("a browser without a wallet extension is told how to get an EVM wallet rather than offered one that cannot answer", async ({ page }) => {
  await page.goto("/account/orders");
  const alert = page.getByRole("alert").filter({ hasText: "No EVM wallet was found in this browser" });
  // Until the page is hydrated a click does nothing: click again until the answer shows.
  await expect(async () => {
    await page.getByRole("button", { name: "Connect EVM wallet" }).click();
    await expect(alert).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(alert.getByRole("link", { name: "how to choose a wallet" })).toHaveAttribute("href", /^https:\/\/ethereum\.org\//);
  // No picker opened, and none with "Browser Wallet" in it.
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByText("Browser Wallet")).toHaveCount(0);
  await page.screenshot({ path: "test-results/mainnet-no-evm-wallet.png" });
});

// An extension that never answers (locked, or broken): RainbowKit would show "Opening Browser Wallet…" for ever.
test("a wallet that never answers the connection request ends with a message and a way to choose another", async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { ethereum: unknown }).ethereum = { request: () => new Promise(() => {}), on() {}, removeListener() {} };
  });
  // The page's clock, moved on past the wait rather than waited for.
  await page.clock.install();
  await page.goto("/account/orders");
  const connect = page.getByRole("button", { name: "Connect EVM wallet" });
  const browserWallet = page.getByRole("dialog").getByRole("button", { name: /Browser Wallet/ });
  await expect(async () => {
    await connect.click({ timeout: 2000 });
    await expect(browserWallet).toBeVisible({ timeout: 5000 });
  }).toPass();
  await browserWallet.click();
  await expect(page.getByRole("dialog")).toContainText("Browser Wallet");
  await page.clock.fastForward(31_000);
  await expect(page.getByRole("alert").filter({ hasText: "Browser Wallet did not answer within 30 seconds" })).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.screenshot({ path: "test-results/mainnet-wallet-no-answer.png" });
  // Another wallet can be chosen: the picker opens again, and the message goes.
  await connect.click();
  await expect(browserWallet).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "did not answer" })).toHaveCount(0);
});
