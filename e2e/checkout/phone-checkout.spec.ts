import { expectAccessible, expectNoSidewaysScroll } from "../a11y";
import { expect, test } from "../fixtures";
import { addToCart, checkoutCart, freshEvmWallet, fundAndPay } from "./flow";

test.use({
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
});

test("on a phone: cart, connect, pay and read the code, every step fitting the screen and accessible", async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  await freshEvmWallet(page, baseURL!);
  await addToCart(page, "test-gift-card-code");
  await page.goto("/cart");
  await expect(page.getByRole("heading", { name: "Checkout" })).toBeVisible();
  await expectNoSidewaysScroll(page, "cart");
  await expectAccessible(page, "cart");
  await page.screenshot({ path: "test-results/phone-1-cart.png", fullPage: true });

  await page.getByRole("button", { name: "Connect EVM wallet" }).click();
  await expect(page.getByRole("dialog").getByRole("button", { name: /Test Wallet/ })).toBeVisible();
  await page.screenshot({ path: "test-results/phone-2-connect.png" });
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Test Wallet/ })
    .click();
  await expect(page.getByText(/Connected: .*Test Wallet/)).toBeVisible();
  await expectAccessible(page, "cart, connected");

  await checkoutCart(page);
  await expect(page.getByRole("button", { name: "Get test USDC" })).toBeVisible();
  await expectNoSidewaysScroll(page, "unpaid invoice");
  await expectAccessible(page, "unpaid invoice");
  await page.screenshot({ path: "test-results/phone-3-invoice.png", fullPage: true });

  await fundAndPay(page);
  await expect(page.locator("output").first()).toHaveText(/^[A-Z0-9-]{8,}$/);
  await expectNoSidewaysScroll(page, "paid invoice");
  await expectAccessible(page, "paid invoice with codes");
  await page.screenshot({ path: "test-results/phone-4-codes.png", fullPage: true });

  await page.goto("/account/orders");
  await expect(page.getByRole("link", { name: /See codes for Test Gift Card/ }).first()).toBeVisible();
  await expectNoSidewaysScroll(page, "orders");
  await expectAccessible(page, "orders");
  await page.screenshot({ path: "test-results/phone-5-orders.png", fullPage: true });

  await page.goto("/account/esims");
  await expect(page.getByText("No eSIMs yet.")).toBeVisible();
  await expectAccessible(page, "eSIMs (none)");
});

test("an eSIM top-up link on a phone: a valid ICCID is carried to the cart, a mistyped one is ignored", async ({ page }) => {
  await page.goto("/products/test-esim-product?iccid=8944500000000000007");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Test eSIM");
  await expect(page.getByRole("note")).toHaveCount(0);

  await page.goto("/products/test-esim-product?iccid=8944500000000000006");
  await expect(page.getByRole("note")).toContainText("Top-up for your eSIM 8944500000000000006");
  await expectNoSidewaysScroll(page, "eSIM top-up product page");
  await expectAccessible(page, "eSIM top-up product page");
  await page.screenshot({ path: "test-results/phone-6-topup.png", fullPage: true });
  // The shopper may change their mind and buy a new eSIM instead.
  await page.getByRole("button", { name: "Buy a new eSIM instead" }).click();
  await expect(page.getByRole("note")).toHaveCount(0);
});
