import { expect, test } from "../fixtures";
import { evmUsdcBalance } from "../x402/devnet-client";
import { addToCart, checkoutCart, connectEvm, freshEvmWallet, getTestUsdc } from "./flow";

test("a shopper buys a gift card with an injected EVM wallet and reads the code on the invoice page", async ({ page, baseURL }) => {
  const wallet = await freshEvmWallet(page, baseURL!);
  const base = wallet.network;

  await page.goto("/products/test-gift-card-code");
  await page.getByRole("radio", { name: /^\$10(?![.\d])/ }).check();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status")).toContainText("Added 1 ×");
  await page.goto("/cart");
  // The package is named in its currency; the price in USDC with two decimals.
  await expect(page.getByRole("list", { name: "Cart items" }).getByText("$10", { exact: true })).toBeVisible();
  await expect(page.getByText("10.00 USDC", { exact: true })).toBeVisible();
  await page.screenshot({ path: "test-results/checkout-1-cart.png", fullPage: true });

  await page.getByRole("button", { name: "Connect EVM wallet" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Test Wallet/ })
    .click();
  await expect(page.getByText(/Connected: .*Test Wallet/)).toBeVisible();
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Sign in with your wallet (done)" })).toBeVisible();
  expect(wallet.calls).toContain("personal_sign");

  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/invoices\/inv_[0-9A-Z]{26}$/);
  await expect(page.getByRole("timer")).toContainText(/Price locked for \d+:\d\d/);
  await expect(page.getByRole("button", { name: "Pay 10.00 USDC" })).toBeVisible();
  const items = page.getByRole("region", { name: "Items" });
  await expect(items.getByRole("listitem").first()).toContainText(/^Test Gift Card.* · \$10\s*10\.00 USDC · awaiting payment$/);
  await page.screenshot({ path: "test-results/checkout-2-invoice.png", fullPage: true });

  // The wallet holds no USDC yet: the page says so before anything is signed, and points to the faucet.
  await expect(page.getByText(`Not enough USDC on ${base.name}: this wallet holds 0.00 USDC and the invoice needs 10.00 USDC.`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay 10.00 USDC" })).toBeDisabled();
  await expect(page.getByRole("list", { name: "Progress" }).getByRole("listitem").filter({ hasText: "Awaiting payment" })).toHaveAttribute(
    "aria-current",
    "step",
  );

  await getTestUsdc(page);
  expect(await evmUsdcBalance(base, wallet.account.address)).toBe(15_000_000n);
  await expect(page.getByText(`This wallet holds 15.00 USDC on ${base.name}.`)).toBeVisible();

  await page.getByRole("button", { name: "Pay 10.00 USDC" }).click();
  await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible({ timeout: 20_000 });
  expect(wallet.calls).toContain("eth_signTypedData_v4");
  expect(await evmUsdcBalance(base, wallet.account.address)).toBe(5_000_000n);
  await expect(page.locator("output").first()).toHaveText(/^[A-Z0-9-]{8,}$/);
  await expect(page.getByRole("list", { name: "Progress" }).getByRole("listitem").filter({ hasText: "Done" })).toHaveAttribute("aria-current", "step");
  await expect(page.getByRole("article").first().getByRole("heading")).toHaveText(/^Test Gift Card.* · \$10$/);
  await page.screenshot({ path: "test-results/checkout-3-codes.png", fullPage: true });

  // The cart was emptied by the payment.
  await page.goto("/cart");
  await expect(page.getByText("Your cart is empty.")).toBeVisible();
});

test("a rejected signature is explained and nothing is paid; the invoice can still be paid", async ({ page, baseURL }) => {
  const wallet = await freshEvmWallet(page, baseURL!);
  const base = wallet.network;
  await addToCart(page, "test-gift-card-code");
  await page.goto("/cart");
  await connectEvm(page);
  await checkoutCart(page);
  await getTestUsdc(page);

  wallet.rejectNextSignature();
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("You declined the request in your wallet");
  expect(await evmUsdcBalance(base, wallet.account.address)).toBe(15_000_000n);
  await expect(page.getByRole("list", { name: "Progress" }).getByRole("listitem").filter({ hasText: "Awaiting payment" })).toHaveAttribute(
    "aria-current",
    "step",
  );
});
