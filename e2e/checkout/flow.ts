import type { Page } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect } from "../fixtures";
import { devnetNetworks, isEvm, type DevnetNetwork } from "../x402/devnet-client";

type EvmDevnetNetwork = Extract<DevnetNetwork, { usdc: { address: string } }>;
import { installEvmTestWallet, type EvmTestWallet } from "../wallets/evm-test-wallet";

// x402 answers 402 to ask for a payment, which Chromium logs as a failed resource load: the shop's pages ask for the
// requirements of a sign-in or a payment where they are answered 200 (lib/api/x402/requirements-ok.ts), and any error in
// the console fails a test (e2e/fixtures.ts).

/** A fresh injected EVM test wallet in the page, on the first devnet EVM chain. */
export async function freshEvmWallet(page: Page, baseURL: string): Promise<EvmTestWallet & { network: EvmDevnetNetwork }> {
  const networks = (await devnetNetworks(baseURL)).filter(isEvm);
  const rpc = Object.fromEntries(networks.map((n) => [Number(n.network.split(":")[1]), n.rpcUrl])) as Record<number, string>;
  const first = networks[0]!;
  const wallet = await installEvmTestWallet(page, privateKeyToAccount(generatePrivateKey()), rpc, Number(first.network.split(":")[1]));
  return { ...wallet, network: first };
}

/** Picks a package on the product page by its visible label, as a shopper taps the tile. */
export async function pickPackage(page: Page, label: string) {
  const radio = page.getByRole("radio", { name: new RegExp(`^${label.replace(/[$.]/g, "\\$&")}`) });
  // Until the page is hydrated a tap does nothing: tap again until the choice holds.
  await expect(async () => {
    await page.getByRole("group", { name: "Choose an amount" }).getByText(label, { exact: true }).click();
    await expect(radio).toBeChecked({ timeout: 1000 });
  }).toPass();
}

/** Product page -> cart: one package of a product. */
export async function addToCart(page: Page, slug: string, packageLabel?: string) {
  await page.goto(`/products/${slug}`);
  if (packageLabel) await pickPackage(page, packageLabel);
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added" })).toContainText("Added 1 ×");
}

export async function connectEvm(page: Page) {
  await page.getByRole("button", { name: "Connect EVM wallet" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Test Wallet/ })
    .click();
  // As long as the page itself waits for a wallet's answer (WALLET_ANSWER_MS): a loaded machine answers late.
  await expect(page.getByText(/Connected: .*Test Wallet/).first()).toBeVisible({ timeout: 30_000 });
}

/** From the cart with a connected wallet: sign in if needed and create the invoice; returns its id. */
export async function checkoutCart(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page).toHaveURL(/\/invoices\/inv_[0-9A-Z]{26}$/);
  return page.url().split("/").pop()!;
}

/**
 * Taps "Get test USDC" and waits for the faucet's notice (`sent`, by default any amount). The faucet waits for its
 * mint's block, queued behind other mints on a busy machine: 20 s, as a payment. Its error, if it shows one, fails the
 * test with the error's words rather than with a notice not found.
 */
export async function getTestUsdc(page: Page, sent: string | RegExp = /USDC sent to your wallet on/) {
  await page.getByRole("button", { name: "Get test USDC" }).click();
  const notice = page.getByText(sent);
  const error = page.getByRole("main").getByRole("alert").filter({ hasText: /\S/ });
  await expect(notice.or(error).first()).toBeVisible({ timeout: 20_000 });
  expect(await error.allTextContents(), "the faucet's error").toEqual([]);
  await expect(notice).toBeVisible();
}

/** On an unpaid invoice page: faucet, then pay; waits for the codes. */
export async function fundAndPay(page: Page) {
  await getTestUsdc(page);
  await expect(page.getByText(/^This wallet holds [\d,]+\.\d{2} USDC/)).toBeVisible();
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible({ timeout: 20_000 });
}
