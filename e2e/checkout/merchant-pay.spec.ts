import { expectAccessible, expectNoSidewaysScroll } from "../a11y";
import { expect, test } from "../fixtures";
import { newMerchant } from "../merchant-api/merchants";
import { evmUsdcBalance, devnetNetworks, isEvm } from "../x402/devnet-client";
import { connectEvm, freshEvmWallet } from "./flow";

test("a merchant's USDC invoice is paid on its payment page with a browser wallet", async ({ page, baseURL }) => {
  const merchant = await newMerchant(baseURL!, 0);
  const created = await merchant.call("/invoices", { body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base" } });
  expect(created.status).toBe(200);
  const invoice = created.body.data as { id: string; payment: { payment_page: string; network: string } };

  const wallet = await freshEvmWallet(page, baseURL!);
  await page.goto(invoice.payment.payment_page);
  await expect(page.getByRole("heading", { name: /10\.00 USDC/ })).toContainText("Base");
  await connectEvm(page);
  await expect(page.getByText("Not enough USDC on Base (devnet): this wallet holds 0.00 USDC.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay 10.00 USDC" })).toBeDisabled();
  await expectAccessible(page, "merchant payment page");
  await page.getByRole("button", { name: "Get test USDC" }).click();
  await expect(page.getByRole("button", { name: "Pay 10.00 USDC" })).toBeEnabled();
  await page.screenshot({ path: "test-results/merchant-pay-1.png", fullPage: true });
  await page.getByRole("button", { name: "Pay 10.00 USDC" }).click();
  await expect(page.getByText("Paid. Thank you!")).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: "test-results/merchant-pay-2.png", fullPage: true });

  const base = (await devnetNetworks(baseURL!)).filter(isEvm).find((n) => n.network === invoice.payment.network)!;
  expect(await evmUsdcBalance(base, wallet.account.address)).toBe(5_000_000n);
  const seen = await merchant.call(`/invoices/${invoice.id}`);
  expect((seen.body.data as { payment: { status: string } }).payment.status).toMatch(/^(payment_confirmed|paid)$/);
});

test("a Base invoice's payment page offers only an EVM wallet, and a connected Solana wallet is told to connect one, with the button", async ({
  page,
  baseURL,
}, testInfo) => {
  const merchant = await newMerchant(baseURL!, 0);
  const created = await merchant.call("/invoices", { body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base" } });
  expect(created.status).toBe(200);
  const invoice = created.body.data as { id: string; payment: { payment_page: string } };
  await freshEvmWallet(page, baseURL!);

  // Before any wallet: the one family that pays on Base.
  await page.goto(invoice.payment.payment_page);
  await expect(page.getByRole("heading", { name: /10\.00 USDC/ })).toContainText("Base");
  await expect(page.getByRole("button", { name: "Connect EVM wallet" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Connect Solana wallet" })).toHaveCount(0);

  // A Solana wallet connected elsewhere in the shop (the burner, from the orders page) cannot pay it: the page says so
  // and offers the EVM wallet's button right there.
  await page.goto("/account/orders");
  await page.getByRole("button", { name: "Connect Solana wallet" }).click();
  await page.getByRole("dialog", { name: "Connect a Solana wallet" }).getByRole("button", { name: "Burner wallet (devnet)" }).click();
  await expect(page.getByText(/Connected: Burner wallet \(devnet\)/)).toBeVisible();
  await page.goto(invoice.payment.payment_page);
  await expect(page.getByText("This invoice is paid on Base (devnet): your Solana wallet cannot pay it. Connect an EVM wallet.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Connect Solana wallet" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /^Pay / })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("merchant-pay-wrong-family.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, "payment page on a phone");
  await page.screenshot({ path: testInfo.outputPath("merchant-pay-wrong-family-phone.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await connectEvm(page);
  await expect(page.getByText(/your Solana wallet cannot pay it/)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Pay 10.00 USDC" })).toBeVisible();
});
