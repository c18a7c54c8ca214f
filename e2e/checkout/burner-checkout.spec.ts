import type { ConsoleMessage, Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { devnetNetworks, evmUsdcBalance, isEvm, tokenBalance } from "../x402/devnet-client";
import { getTestUsdc } from "./flow";

const BURNER = "Burner wallet (devnet)";
const BURNER_RE = /Burner wallet \(devnet\)/;

/** A $10 gift card in the cart, and the cart page open, with nothing but the page: no wallet was installed. */
async function cartWithGiftCard(page: Page) {
  await page.goto("/products/test-gift-card-code");
  await page.getByRole("radio", { name: /^\$10(?![.\d])/ }).check();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status")).toContainText("Added 1 ×");
  await page.goto("/cart");
  await expect(page.locator("p").filter({ hasText: "No wallet extension?" })).toContainText(`pick ${BURNER} in either list`);
}

/** The connected wallet's full address, as the page shows it. */
async function connectedAddress(page: Page): Promise<string> {
  const connected = page.getByText(/Connected: Burner wallet \(devnet\)/).first();
  await expect(connected).toBeVisible();
  return (await connected.locator("code").getAttribute("title"))!;
}

/** Disconnecting is remembered: the next visit asks to connect again. */
async function disconnectStays(page: Page) {
  await page.getByRole("button", { name: "Disconnect" }).click();
  await expect(page.getByRole("button", { name: "Connect EVM wallet" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "Connect EVM wallet" })).toBeVisible();
  await expect(page.getByText(/Connected:/)).toHaveCount(0);
}

/**
 * From a connected wallet on the cart page to its invoice: one signature to sign in, then the price is locked. The
 * sign-in logs nothing to the console: its challenge comes from a route that answers 200, not /x402/connect's 402 that
 * Chromium would log as a failed resource.
 */
async function signInAndOpenInvoice(page: Page) {
  const logged: string[] = [];
  const log = (msg: ConsoleMessage) => void (msg.type() === "error" || msg.type() === "warning" ? logged.push(msg.text()) : undefined);
  page.on("console", log);
  const challenge = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/sign-in/challenge");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Sign in with your wallet (done)" })).toBeVisible();
  expect((await challenge).status()).toBe(200);
  page.off("console", log);
  expect(logged, "console errors and warnings of the sign-in").toEqual([]);
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/invoices\/inv_[0-9A-Z]{26}$/);
}

/** Mint test USDC to the wallet on the chosen network, pay, and wait for the codes. */
async function fundAndPay(page: Page, network: string) {
  await getTestUsdc(page, `15.00 USDC sent to your wallet on ${network}`);
  await page.getByRole("button", { name: "Pay 10.00 USDC" }).click();
  await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator("output").first()).toHaveText(/^[A-Z0-9-]{8,}$/);
}

test("a shopper without a wallet extension buys a gift card with the EVM burner wallet", async ({ page, context, baseURL }) => {
  const evm = (await devnetNetworks(baseURL!)).filter(isEvm);
  const base = evm[0]!;
  await cartWithGiftCard(page);

  await page.getByRole("button", { name: "Connect EVM wallet" }).click();
  const burner = page.getByRole("dialog").getByRole("button", { name: BURNER_RE });
  await expect(burner).toBeVisible();
  await page.screenshot({ path: "test-results/burner-1-evm-dialog.png" });
  // Without an extension, "Browser Wallet" (window.ethereum) is not offered: it could only spin.
  await expect(page.getByRole("dialog").getByRole("button", { name: /Browser Wallet/ })).toHaveCount(0);
  await burner.click();
  const owner = await connectedAddress(page);
  await expect(page.getByText(/\(EVM\)/)).toBeVisible();

  await signInAndOpenInvoice(page);
  await expect(page.getByRole("radio")).toHaveCount(evm.length);
  await expect(page.getByRole("radio", { name: base.name })).toBeChecked();
  await fundAndPay(page, base.name);
  expect(await evmUsdcBalance(base, owner)).toBe(5_000_000n);

  // The sign-in is the browser's, not the tab's: the invoice opened in another tab shows its codes without asking.
  const other = await context.newPage();
  const otherErrors: string[] = [];
  other.on("console", (msg) => void (msg.type() === "error" && otherErrors.push(msg.text())));
  await other.goto(page.url());
  await expect(other.getByRole("heading", { name: "Your codes" })).toBeVisible();
  await expect(other.getByRole("button", { name: "Sign in" })).toHaveCount(0);

  // The key stays in the browser: on a new visit the same wallet is back, without a dialog.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible();
  expect(await connectedAddress(page)).toBe(owner);
  // The orders page, opened anew, waits for the remembered wallet: it never asks to connect one meanwhile.
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.body?.innerText.includes("Connect your wallet and sign in")) (window as { askedToConnect?: boolean }).askedToConnect = true;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto("/account/orders");
  await expect(page.getByRole("link", { name: /^See codes/ }).first()).toBeVisible();
  expect(await connectedAddress(page)).toBe(owner);
  expect(await page.evaluate(() => (window as { askedToConnect?: boolean }).askedToConnect ?? false)).toBe(false);
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible();
  await disconnectStays(page);
  // Disconnecting signed the wallet out in every tab: the other one hides the codes and says why it asks again.
  await expect(other.getByRole("heading", { name: "Your codes" })).toBeHidden();
  await expect(other.getByText(/You signed out, in this tab or another one/)).toBeVisible();
  await expect(other.getByRole("button", { name: "Sign in" })).toBeVisible();
  await other.screenshot({ path: "test-results/burner-4-signed-out-elsewhere.png" });
  expect(otherErrors, "console errors of the other tab").toEqual([]);
  await other.close();
});

test("a shopper without a wallet extension buys a gift card with the Solana burner wallet", async ({ page, baseURL }) => {
  const sol = (await devnetNetworks(baseURL!)).find((n) => n.network.startsWith("solana:"))!;
  if (!("mint" in sol.usdc)) throw new Error("no Solana mint");
  await cartWithGiftCard(page);

  await page.getByRole("button", { name: "Connect Solana wallet" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect a Solana wallet" });
  const burner = dialog.getByRole("button", { name: BURNER });
  await expect(burner).toBeVisible();
  await page.screenshot({ path: "test-results/burner-2-solana-dialog.png" });
  await burner.click();
  await expect(dialog).toBeHidden();
  const owner = await connectedAddress(page);
  await expect(page.getByText(/\(Solana\)/)).toBeVisible();

  await signInAndOpenInvoice(page);
  // A Solana wallet pays on Solana: the invoice offers that network only, chosen already.
  await expect(page.getByRole("radio")).toHaveCount(1);
  await expect(page.getByRole("radio", { name: sol.name })).toBeChecked();
  await fundAndPay(page, sol.name);
  expect(await tokenBalance(sol.rpcUrl, sol.usdc.mint, owner)).toBe(5_000_000n);
  await page.screenshot({ path: "test-results/burner-3-solana-codes.png", fullPage: true });

  await page.reload();
  await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible();
  expect(await connectedAddress(page)).toBe(owner);
  await disconnectStays(page);
});
