import { expectAccessible } from "../a11y";
import { expect, test } from "../fixtures";
import { newMerchant } from "../merchant-api/merchants";
import { evmUsdcBalance, devnetNetworks, isEvm } from "../x402/devnet-client";
import { connectEvm, freshEvmWallet, X402_CHALLENGE_LOGS } from "./flow";

test.use({ expectedConsoleErrors: [X402_CHALLENGE_LOGS] });

test("a merchant's USDC invoice is paid on its payment page with a browser wallet", async ({ page, baseURL }) => {
  const merchant = await newMerchant(baseURL!, 0);
  const created = await merchant.call("/invoices", { body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base" } });
  expect(created.status).toBe(200);
  const invoice = created.body.data as { id: string; payment: { payment_page: string; network: string } };

  const wallet = await freshEvmWallet(page, baseURL!);
  await page.goto(invoice.payment.payment_page);
  await expect(page.getByRole("heading", { name: /10 USDC/ })).toContainText("Base");
  await connectEvm(page);
  await expect(page.getByText("Not enough USDC on Base (devnet): this wallet holds 0 USDC.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay 10 USDC" })).toBeDisabled();
  await expectAccessible(page, "merchant payment page");
  await page.getByRole("button", { name: "Get test USDC" }).click();
  await expect(page.getByRole("button", { name: "Pay 10 USDC" })).toBeEnabled();
  await page.screenshot({ path: "test-results/merchant-pay-1.png", fullPage: true });
  await page.getByRole("button", { name: "Pay 10 USDC" }).click();
  await expect(page.getByText("Paid. Thank you!")).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: "test-results/merchant-pay-2.png", fullPage: true });

  const base = (await devnetNetworks(baseURL!)).filter(isEvm).find((n) => n.network === invoice.payment.network)!;
  expect(await evmUsdcBalance(base, wallet.account.address)).toBe(5_000_000n);
  const seen = await merchant.call(`/invoices/${invoice.id}`);
  expect((seen.body.data as { payment: { status: string } }).payment.status).toMatch(/^(payment_confirmed|paid)$/);
});
