import { generateKeyPairSigner } from "@solana/kit";
import { expect, test } from "../fixtures";
import { addToCart, getTestUsdc } from "./flow";
import { devnetNetworks, tokenBalance } from "../x402/devnet-client";
import { installSolanaTestWallet } from "../wallets/solana-test-wallet";

test("a shopper buys a gift card with a Wallet Standard Solana wallet, from the shop to the code", async ({ page, baseURL }) => {
  const sol = (await devnetNetworks(baseURL!)).find((n) => n.network.startsWith("solana:"))!;
  const mint = (sol.usdc as { mint: string }).mint;
  const wallet = await installSolanaTestWallet(page, await generateKeyPairSigner());

  // Test products stay out of search and browse: the shopper reaches this one by its address.
  await page.goto("/");
  await expect(page.getByRole("link", { name: /Cart/ }).first()).toBeVisible();
  await page.goto("/products/test-gift-card-code");
  await page.getByRole("radio", { name: /^\$10(?![.\d])/ }).check();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status")).toContainText("Added 1 ×");
  await page.getByRole("link", { name: "View cart" }).click();

  await page.getByRole("button", { name: "Connect Solana wallet" }).click();
  const picker = page.getByRole("dialog", { name: "Connect a Solana wallet" });
  await expect(picker.getByRole("button", { name: /Solana Test Wallet/ })).toBeVisible();
  await page.screenshot({ path: "test-results/checkout-solana-1-picker.png" });
  await picker.getByRole("button", { name: /Solana Test Wallet/ }).click();
  await expect(picker).toBeHidden();
  await expect(page.getByText(/Connected: .*Solana Test Wallet/)).toBeVisible();

  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Sign in with your wallet (done)" })).toBeVisible();
  expect(wallet.calls).toEqual(["connect", "signMessage"]);

  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/invoices\/inv_[0-9A-Z]{26}$/);
  // A Solana wallet is offered the Solana network only.
  await expect(page.getByRole("radio", { name: sol.name })).toBeChecked();
  await expect(page.getByRole("group", { name: "Network" }).getByRole("radio")).toHaveCount(1);

  await getTestUsdc(page);
  expect(await tokenBalance(sol.rpcUrl, mint, wallet.signer.address)).toBe(15_000_000n);
  await page.screenshot({ path: "test-results/checkout-solana-2-invoice.png", fullPage: true });

  await page.getByRole("button", { name: "Pay 10.00 USDC" }).click();
  await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible({ timeout: 20_000 });
  expect(wallet.calls).toContain("signTransaction");
  expect(await tokenBalance(sol.rpcUrl, mint, wallet.signer.address)).toBe(5_000_000n);
  await expect(page.locator("output").first()).toHaveText(/^[A-Z0-9-]{8,}$/);
  await expect(page.getByText(`Paid on ${sol.name}:`)).toBeVisible();
  await page.screenshot({ path: "test-results/checkout-solana-3-codes.png", fullPage: true });
});

test("a declined Solana signature is explained and nothing moves", async ({ page, baseURL }) => {
  const sol = (await devnetNetworks(baseURL!)).find((n) => n.network.startsWith("solana:"))!;
  const mint = (sol.usdc as { mint: string }).mint;
  const wallet = await installSolanaTestWallet(page, await generateKeyPairSigner());
  await addToCart(page, "test-gift-card-code");
  await page.goto("/cart");
  await page.getByRole("button", { name: "Connect Solana wallet" }).click();
  await page
    .getByRole("dialog", { name: "Connect a Solana wallet" })
    .getByRole("button", { name: /Solana Test Wallet/ })
    .click();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/invoices\//);
  await getTestUsdc(page);

  wallet.rejectNextSignature();
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("You declined the request in your wallet");
  expect(await tokenBalance(sol.rpcUrl, mint, wallet.signer.address)).toBe(15_000_000n);
  await expect(page.getByRole("button", { name: /^Pay / })).toBeEnabled();
});
