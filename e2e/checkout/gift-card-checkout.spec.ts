import type { Page } from "@playwright/test";
import { expectAccessible, expectNoSidewaysScroll } from "../a11y";
import { expect, test } from "../fixtures";
import { newMerchant } from "../merchant-api/merchants";
import { evmUsdcBalance } from "../x402/devnet-client";
import { connectEvm, freshEvmWallet, getTestUsdc } from "./flow";

// The shop's own gift cards in the browser: a code in the cart pays the invoice first and the wallet pays exactly the
// rest (nothing when the card covers it all); a refused code is told by its field, the cart kept; the balance page
// shows what is left on each card and where it went; the store gift card, bought as a product, delivers such a code.

/** A refused code (400 at invoice/create, 404 at the balance route) is a failed load in Chromium's console. */
const REFUSED_LOGS =
  /status of (400 \(Bad Request\)|404 \(Not Found\)|429 \(Too Many Requests\)) \(http:\/\/[^)]+\/(x402\/invoice\/create|api\/gift-cards\/balance)\)$/;
test.use({ expectedConsoleErrors: [REFUSED_LOGS] });
// One card is spent by a test and read by the last: in order.
test.describe.configure({ mode: "serial" });

// A card of 25 USD pays a 10 USD cart whole; one of 4 USD pays part of it and the wallet 6.
let whole: string;
let part: string;

test.beforeAll(async ({ baseURL }) => {
  const m = await newMerchant(baseURL!, 100);
  const batch = async (value: string) => {
    const made = await m.call("/gift-card-batches", { body: { quantity: 1, value, currency: "USD" } });
    expect(made.status).toBe(200);
    return (made.body.data as { cards: { code: string }[] }).cards[0]!.code;
  };
  whole = await batch("25");
  part = await batch("4");
});

const codeField = (page: Page) => page.getByLabel("Gift card code");

/** The $10 package of the test gift card, in the cart. */
async function addTenDollarCard(page: Page) {
  await page.goto("/products/test-gift-card-code");
  await page.getByRole("radio", { name: /^\$10(?![.\d])/ }).check();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added" })).toContainText("Added 1 ×");
}

/** A $10 test gift card in the cart, the wallet connected and signed in, and the cart page showing the code field. */
async function cartReady(page: Page) {
  await addTenDollarCard(page);
  await page.goto("/cart");
  await connectEvm(page);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Sign in with your wallet (done)" })).toBeVisible();
  await expect(codeField(page)).toBeVisible();
}

/** The invoice's amounts as the page lists them: price, the card's share, what the wallet pays. */
async function expectAmounts(page: Page, amounts: { price: string; card: string; wallet: string }) {
  const items = page.getByRole("region", { name: "Items" });
  await expect(items.getByRole("term").filter({ hasText: "Price" }).locator("xpath=following-sibling::dd[1]")).toHaveText(`${amounts.price} USDC`);
  await expect(items.getByRole("term").filter({ hasText: "Paid by your gift card" }).locator("xpath=following-sibling::dd[1]")).toHaveText(
    `−${amounts.card} USDC`,
  );
  await expect(items.getByRole("term").filter({ hasText: "Your wallet pays" }).locator("xpath=following-sibling::dd[1]")).toHaveText(`${amounts.wallet} USDC`);
}

test("a gift card that covers the cart pays it all: no wallet payment, the codes arrive", async ({ page, baseURL }, testInfo) => {
  const wallet = await freshEvmWallet(page, baseURL!);
  await cartReady(page);
  await codeField(page).fill(whole.toLowerCase());
  await page.getByRole("button", { name: "Continue to payment" }).click();

  await expect(page).toHaveURL(/\/invoices\/inv_[0-9A-Z]{26}$/);
  await expectAmounts(page, { price: "10.00", card: "10.00", wallet: "0.00" });
  await expect(page.getByText("Paid in full by your gift card: nothing to pay from your wallet.")).toBeVisible();
  await expect(page.getByRole("button", { name: /^Pay / })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator("output").first()).toHaveText(/^[A-Z0-9-]{8,}$/);
  await expect(page.getByText(/^Paid on /)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("invoice-gift-card-whole.png"), fullPage: true });
  // The wallet signed in, and signed nothing else: no payment.
  expect(wallet.calls).toContain("personal_sign");
  expect(wallet.calls).not.toContain("eth_signTypedData_v4");
  expect(await evmUsdcBalance(wallet.network, wallet.account.address)).toBe(0n);

  // The cart is bought.
  await page.goto("/cart");
  await expect(page.getByText("Your cart is empty.")).toBeVisible();
});

test("a wrong code is told by the field, and the cart stays", async ({ page, baseURL }, testInfo) => {
  await freshEvmWallet(page, baseURL!);
  await cartReady(page);
  await codeField(page).fill("0000-0000-0000-0000-0000");
  await page.getByRole("button", { name: "Continue to payment" }).click();

  const message = "No gift card has this code. Check it and try again, or leave the field empty to pay with your wallet.";
  await expect(page.getByRole("alert").filter({ hasText: message })).toBeVisible();
  await expect(codeField(page)).toHaveAttribute("aria-invalid", "true");
  await expect(codeField(page)).toHaveAccessibleDescription(new RegExp(message.replace(/[.]/g, "\\.")));
  await expect(codeField(page)).toBeFocused();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(codeField(page)).toHaveValue("0000-0000-0000-0000-0000");
  await expect(page.getByRole("button", { name: "Continue to payment" })).toBeEnabled();
  await expect(page.getByText("Your cart is empty.")).toHaveCount(0);
  await expectAccessible(page, "cart with a refused gift card");

  // The field on a desktop and on a phone.
  await page.getByRole("heading", { name: "Checkout" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("cart-gift-card-desktop.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, "cart on a phone");
  await page.screenshot({ path: testInfo.outputPath("cart-gift-card-phone.png"), fullPage: true });
});

test("a gift card that covers part: the wallet pays exactly the rest; an empty card is then refused", async ({ page, baseURL }, testInfo) => {
  const wallet = await freshEvmWallet(page, baseURL!);
  await cartReady(page);
  await codeField(page).fill(part);
  await page.getByRole("button", { name: "Continue to payment" }).click();

  await expect(page).toHaveURL(/\/invoices\/inv_[0-9A-Z]{26}$/);
  await expectAmounts(page, { price: "10.00", card: "4.00", wallet: "6.00" });
  await page.screenshot({ path: testInfo.outputPath("invoice-gift-card-part.png"), fullPage: true });
  // The faucet gives what the wallet pays and a little more: 6 + 5.
  await getTestUsdc(page, `11.00 USDC sent to your wallet on ${wallet.network.name}`);
  expect(await evmUsdcBalance(wallet.network, wallet.account.address)).toBe(11_000_000n);
  await page.getByRole("button", { name: "Pay 6.00 USDC" }).click();
  await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible({ timeout: 20_000 });
  expect(wallet.calls).toContain("eth_signTypedData_v4");
  // Exactly 6 USDC left the wallet.
  expect(await evmUsdcBalance(wallet.network, wallet.account.address)).toBe(5_000_000n);
  await expectAmounts(page, { price: "10.00", card: "4.00", wallet: "6.00" });

  // The card is spent: the next cart's invoice refuses it by the field.
  await page.goto("/cart");
  await expect(page.getByText("Your cart is empty.")).toBeVisible();
  await addTenDollarCard(page);
  await page.goto("/cart");
  await codeField(page).fill(part);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "This gift card has nothing left on it." })).toBeVisible();
  await expect(codeField(page)).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/cart$/);
});

test("the balance page shows each card's balance and history; a wrong code and too many tries are told", async ({ page }, testInfo) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Gift card balance" }).click();
  await expect(page).toHaveURL(/\/gift-cards\/balance$/);
  await expect(page.getByRole("heading", { level: 1, name: "Gift card balance" })).toBeVisible();

  const check = async (code: string) => {
    await page.getByLabel("Gift card code").fill(code);
    await page.getByRole("button", { name: "Check balance" }).click();
  };
  const figure = (name: string) =>
    page.getByRole("region", { name: "Your gift card" }).getByRole("term").filter({ hasText: name }).locator("xpath=following-sibling::dd[1]");
  const history = () => page.getByRole("list", { name: "History" }).getByRole("listitem");
  const amount = (n: number) => new RegExp(`^${n}(\\.0+)? USD$`);

  // The 25 USD card paid one 10 USD invoice.
  await check(whole);
  await expect(figure("Balance")).toHaveText(amount(15));
  await expect(figure("Held")).toHaveText(amount(0));
  await expect(figure("Value")).toHaveText(amount(25));
  await expect(figure("Currency")).toHaveText("USD");
  await expect(history()).toHaveCount(1);
  await expect(history().first()).toContainText(/^10(\.0+)? USD/);
  await expect(history().first()).toContainText("Spent");
  await expectAccessible(page, "gift card balance");
  await page.screenshot({ path: testInfo.outputPath("balance-desktop.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, "gift card balance on a phone");
  await page.screenshot({ path: testInfo.outputPath("balance-phone.png"), fullPage: true });

  // The 4 USD card paid 4 of the second one, and has nothing left.
  await check(part);
  await expect(figure("Balance")).toHaveText(amount(0));
  await expect(figure("Value")).toHaveText(amount(4));
  await expect(history()).toHaveCount(1);
  await expect(history().first()).toContainText(/^4(\.0+)? USD/);
  await expect(history().first()).toContainText("Spent");

  // A wrong code: told by the field, and nothing shown of the last card.
  await check("ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ");
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(/^No gift card has this code\./);
  await expect(page.getByLabel("Gift card code")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("region", { name: "Your gift card" })).toHaveCount(0);

  // Too many wrong guesses: the shop's 429 and its Retry-After (answered here by the test: the real limit takes many).
  await page.route("**/api/gift-cards/balance", (route) =>
    route.fulfill({
      status: 429,
      headers: { "Retry-After": "30", "Content-Type": "application/json" },
      body: JSON.stringify({ error: { code: "RATE_LIMITED", message: "Too many wrong codes." } }),
    }),
  );
  await check(whole);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(/^Too many tries: wait (30|29|28) seconds before you try again\.$/);
  await expect(page.getByRole("button", { name: "Check balance" })).toBeDisabled();
});

test("the store gift card: bought with the wallet, its code pays a cart, and cannot pay for another store card", async ({ page, baseURL }) => {
  const wallet = await freshEvmWallet(page, baseURL!);
  await page.goto("/products/store-gift-card");
  await expect(page.getByRole("heading", { level: 1, name: "x402 Storefront Gift Card" })).toBeVisible();
  // Sold at its face value.
  await page.getByRole("radio", { name: /^\$10(?![.\d])/ }).check();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added" })).toContainText("Added 1 ×");
  await page.goto("/cart");
  await connectEvm(page);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Sign in with your wallet (done)" })).toBeVisible();
  await page.getByRole("button", { name: "Continue to payment" }).click();

  await expect(page).toHaveURL(/\/invoices\/inv_[0-9A-Z]{26}$/);
  await getTestUsdc(page);
  await page.getByRole("button", { name: "Pay 10.00 USDC" }).click();
  await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible({ timeout: 20_000 });
  const code = (await page.locator("output").first().textContent())!;
  expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){4}$/);
  expect(await evmUsdcBalance(wallet.network, wallet.account.address)).toBe(5_000_000n);

  // The delivered code pays a $10 cart whole (the wallet is still signed in).
  await addTenDollarCard(page);
  await page.goto("/cart");
  await codeField(page).fill(code);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/invoices\/inv_[0-9A-Z]{26}$/);
  await expectAmounts(page, { price: "10.00", card: "10.00", wallet: "0.00" });
  await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible({ timeout: 20_000 });

  // A card never pays for the store gift card: told by the field, the cart kept.
  await page.goto("/products/store-gift-card");
  await page.getByRole("radio", { name: /^\$10(?![.\d])/ }).check();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added" })).toContainText("Added 1 ×");
  await page.goto("/cart");
  await codeField(page).fill(code);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "A gift card cannot pay for an x402 Storefront gift card." })).toBeVisible();
  await expect(codeField(page)).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/cart$/);
});
