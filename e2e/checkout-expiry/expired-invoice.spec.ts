import { expect, test } from "../fixtures";
import { addToCart, checkoutCart, connectEvm, freshEvmWallet } from "../checkout/flow";

// This shop's invoices live one minute (INVOICE_TTL_MINUTES=1, see playwright.config.ts).

test("an invoice left unpaid expires; the cart is still there and a new invoice is one click away", async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  await freshEvmWallet(page, baseURL!);
  await addToCart(page, "test-gift-card-code");
  await page.goto("/cart");
  await connectEvm(page);
  const first = await checkoutCart(page);
  await expect(page.getByRole("timer")).toContainText(/Price locked for (1:00|0:\d\d)/);
  await expect(page.getByRole("button", { name: "Pay 10.00 USDC" })).toBeVisible();

  // The shopper walks away; the price lock runs out.
  await expect(page.getByText("This invoice expired before it was paid; nothing was charged.")).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole("button", { name: /^Pay / })).toHaveCount(0);
  await expect(page.getByRole("timer")).toHaveCount(0);
  await page.screenshot({ path: "test-results/checkout-expired.png", fullPage: true });

  // Reloading says the same: the server, not the page's clock, decided.
  await page.reload();
  await expect(page.getByText("This invoice expired before it was paid; nothing was charged.")).toBeVisible();

  await page.getByRole("button", { name: "New invoice from my cart" }).click();
  await expect(page).not.toHaveURL(new RegExp(first));
  await expect(page).toHaveURL(/\/invoices\/inv_[0-9A-Z]{26}$/);
  await expect(page.getByRole("timer")).toContainText(/Price locked for (1:00|0:5\d)/);
  await expect(page.getByRole("listitem").filter({ hasText: "Test Gift Card" }).first()).toContainText("10.00 USDC");
});
