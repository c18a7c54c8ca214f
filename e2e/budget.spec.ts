import { BROWSE_JS_BUDGET_KB, BROWSE_PAGES, CART_JS_BUDGET_KB, CART_LINE, measurePageJs } from "./js-budget";
import { expect, test } from "./fixtures";

for (const path of BROWSE_PAGES) {
  test(`${path} stays within the JavaScript budget`, async ({ page }) => {
    const { gzipKb } = await measurePageJs(page, path);
    expect(gzipKb).toBeGreaterThan(10); // measured something
    expect(gzipKb).toBeLessThanOrEqual(BROWSE_JS_BUDGET_KB);
  });
}

test("the cart loads no wallet stack until a wallet family is chosen, then only that family's", async ({ page }) => {
  await page.addInitScript((line) => window.localStorage.setItem("storefront.cart.v1", JSON.stringify([line])), CART_LINE);
  const before = await measurePageJs(page, "/cart");
  expect(before.gzipKb).toBeGreaterThan(10);
  expect(before.gzipKb).toBeLessThanOrEqual(CART_JS_BUDGET_KB);

  // Choosing EVM loads RainbowKit and opens its picker; the Solana adapter's code stays away.
  const scripts: string[] = [];
  page.on(
    "response",
    (res) =>
      void (
        res.request().resourceType() === "script" &&
        res.text().then(
          (t) => scripts.push(t),
          () => undefined,
        )
      ),
  );
  await page.getByRole("button", { name: "Connect EVM wallet" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  // A response's body is read after the response event: the picker may show before the last script's text arrives.
  await expect.poll(() => scripts.some((s) => s.includes("data-rk"))).toBe(true);
  expect(scripts.some((s) => s.includes("WalletNotReadyError"))).toBe(false);
});
