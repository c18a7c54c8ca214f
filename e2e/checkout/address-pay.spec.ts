import type { Page } from "@playwright/test";
import { expectAccessible, expectNoSidewaysScroll } from "../a11y";
import { expect, test } from "../fixtures";
import { newMerchant } from "../merchant-api/merchants";

// A merchant's invoice paid by a plain transfer to its own address, on its payment page, with the devnet's burner
// wallet: in ether (`ethereum`, `eth_base`: no other way) and in USDC (`usdc_base`, beside the x402 way), on a desktop
// screen and a phone's; and a shopper's cart paid the same way from the checkout (ether on the desktop, USDC on the
// phone). The shop counts the transfer at the chain's depth and the page follows until it is paid.

const BURNER_RE = /Burner wallet \(devnet\)/;
type Invoice = { id: string; payment: { payment_page: string; address: string; amount: string; payment_uri: string; received: string } };

// Ether on Ethereum (paid by address only) on the desktop, on Base on the phone.
const screens = [
  {
    name: "desktop",
    viewport: { width: 1280, height: 800 },
    ether: { method: "ethereum", network: "Ethereum (devnet)" },
    shopper: { label: "ETH on Base (devnet)", section: "Send ETH from any wallet or exchange", faucet: "Get test ether" },
  },
  {
    name: "phone",
    viewport: { width: 390, height: 844 },
    ether: { method: "eth_base", network: "Base (devnet)" },
    shopper: { label: "USDC on Base (devnet)", section: "Or send USDC from any wallet or exchange", faucet: "Get test USDC" },
  },
];

async function connectBurner(page: Page) {
  await page.getByRole("button", { name: "Connect EVM wallet" }).click();
  await page.getByRole("dialog").getByRole("button", { name: BURNER_RE }).click();
  await expect(page.getByText(/Connected: Burner wallet \(devnet\)/).first()).toBeVisible();
}

for (const screen of screens) {
  test.describe(`on a ${screen.name} screen`, () => {
    test.use({ viewport: screen.viewport });

    test(`an ether invoice (${screen.ether.method}) is paid from the burner wallet by a transfer to its own address`, async ({ page, baseURL }, testInfo) => {
      const merchant = await newMerchant(baseURL!, 0);
      const created = await merchant.call("/invoices", {
        body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: screen.ether.method },
      });
      expect(created.status).toBe(200);
      const invoice = created.body.data as Invoice;
      expect(invoice.payment.payment_uri).toMatch(/^ethereum:0x[0-9a-fA-F]{40}@\d+\?value=\d+$/);

      await page.goto(invoice.payment.payment_page);
      await expect(page.getByRole("heading", { name: `${invoice.payment.amount} ETH` })).toContainText(
        `$10.00 at 3000 USD per ether, on ${screen.ether.network}`,
      );
      const section = page.getByRole("region", { name: "Send ETH from any wallet or exchange" });
      await expect(section.getByRole("img", { name: /QR code of the payment/ })).toBeVisible();
      await expect(section.locator("output").filter({ hasText: new RegExp(`^${invoice.payment.address}$`) })).toBeVisible();
      await expect(section.getByRole("button", { name: "Copy Address" })).toBeVisible();
      await expect(section.getByText("Waiting for your payment…")).toBeVisible();
      // No x402 way for ether.
      await expect(page.getByRole("button", { name: /^Pay \d/ })).toHaveCount(0);
      await expectAccessible(page, `ether payment page (${screen.name})`);
      if (screen.name === "phone") await expectNoSidewaysScroll(page, "ether payment page on a phone");

      await connectBurner(page);
      await section.getByRole("button", { name: "Get test ether" }).click();
      await expect(section.getByText(/1 ether sent to your wallet/)).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`address-pay-eth-${screen.name}.png`), fullPage: true });
      await section.getByRole("button", { name: "Pay with the burner wallet" }).click();
      await expect(section.getByText(/^Sent: transaction 0x[0-9a-f]{64}/)).toBeVisible();
      await expect(page.getByText("Paid. Thank you!")).toBeVisible({ timeout: 30_000 });

      const seen = (await merchant.call(`/invoices/${invoice.id}`)).body.data as Invoice & { payment: { status: string; missing: string } };
      expect(seen.payment).toMatchObject({ received: invoice.payment.amount, missing: "0" });
      expect(seen.payment.status).toMatch(/^(payment_confirmed|paid)$/);
    });

    test("a USDC invoice is paid by a plain transfer to its own address, beside the x402 way", async ({ page, baseURL }, testInfo) => {
      const merchant = await newMerchant(baseURL!, 0);
      const created = await merchant.call("/invoices", { body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_base" } });
      expect(created.status).toBe(200);
      const invoice = created.body.data as Invoice;

      await page.goto(invoice.payment.payment_page);
      await expect(page.getByRole("heading", { name: /10\.00 USDC/ })).toContainText("Base");
      const section = page.getByRole("region", { name: "Or send USDC from any wallet or exchange" });
      await expect(section.getByRole("img", { name: /QR code of the payment: 10 USDC/ })).toBeVisible();
      await expect(section.getByRole("button", { name: "Copy USDC token contract" })).toBeVisible();
      if (screen.name === "phone") await expectNoSidewaysScroll(page, "USDC payment page on a phone");

      await connectBurner(page);
      await page.getByRole("button", { name: "Get test USDC" }).click();
      await expect(page.getByRole("button", { name: "Pay 10.00 USDC" })).toBeEnabled();
      await page.screenshot({ path: testInfo.outputPath(`address-pay-usdc-${screen.name}.png`), fullPage: true });
      await section.getByRole("button", { name: "Pay with the burner wallet" }).click();
      await expect(page.getByText("Paid. Thank you!")).toBeVisible({ timeout: 30_000 });
      const seen = (await merchant.call(`/invoices/${invoice.id}`)).body.data as Invoice;
      expect(seen.payment.received).toBe("10");
    });

    test(`a shopper pays the cart by a transfer (${screen.shopper.label}) from the burner wallet, refunds to an address of theirs`, async ({
      page,
    }, testInfo) => {
      await page.goto("/products/test-gift-card-code");
      await page.getByRole("radio", { name: /^\$10(?![.\d])/ }).check();
      await page.getByRole("button", { name: "Add to cart" }).click();
      await expect(page.getByRole("status")).toContainText("Added 1 ×");
      await page.goto("/cart");
      await connectBurner(page);
      await page.getByRole("radio", { name: /By a transfer from any wallet or exchange/ }).check();
      await page.getByLabel("Coin and network").selectOption({ label: screen.shopper.label });
      await expectAccessible(page, `the checkout's choice of a transfer (${screen.name})`);
      await page.screenshot({ path: testInfo.outputPath(`checkout-transfer-${screen.name}.png`), fullPage: true });
      // The refund address is the connected wallet's unless another is typed; one that is no address is refused there.
      const refund = page.getByLabel(/^Refund address/);
      const own = await refund.inputValue();
      expect(own).toMatch(/^0x[0-9a-fA-F]{40}$/);
      await refund.fill("0x1234");
      await page.getByRole("button", { name: "Continue to payment" }).click();
      await expect(page.getByText("This is not an EVM address: 0x followed by 40 hexadecimal digits.")).toBeVisible();
      await expect(page).toHaveURL(/\/cart$/);
      await refund.fill(own);
      if (screen.name === "phone") await expectNoSidewaysScroll(page, "the checkout's choice of a transfer on a phone");
      await page.getByRole("button", { name: "Continue to payment" }).click();
      await expect(page).toHaveURL(/\/invoices\/inv_[0-9A-Z]{26}$/);

      const section = page.getByRole("region", { name: screen.shopper.section });
      await expect(section.getByRole("img", { name: /QR code of the payment/ })).toBeVisible();
      await expect(section.getByText("Waiting for your payment…")).toBeVisible();
      await expectAccessible(page, `a shopper's invoice paid by a transfer (${screen.name})`);
      if (screen.name === "phone") await expectNoSidewaysScroll(page, "a shopper's invoice paid by a transfer on a phone");
      // Test money: ether from the section's faucet; USDC (with gas) from the x402 section's, which pays it too.
      await page.getByRole("button", { name: screen.shopper.faucet }).click();
      await expect(page.getByText(/sent to your wallet/)).toBeVisible({ timeout: 20_000 });
      await page.screenshot({ path: testInfo.outputPath(`shopper-transfer-${screen.name}.png`), fullPage: true });
      await section.getByRole("button", { name: "Pay with the burner wallet" }).click();
      await expect(section.getByText(/^Sent: transaction 0x[0-9a-f]{64}/)).toBeVisible();
      await expect(page.getByRole("heading", { name: "Your codes" })).toBeVisible({ timeout: 30_000 });
    });
  });
}

test("a USDC invoice on Solana is paid by Solana Pay from the burner wallet, its reference carried by the transfer", async ({ page, baseURL }, testInfo) => {
  const merchant = await newMerchant(baseURL!, 0);
  const created = await merchant.call("/invoices", { body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "usdc_solana" } });
  expect(created.status).toBe(200);
  const invoice = created.body.data as Invoice & { payment: { reference: string } };
  expect(invoice.payment.payment_uri).toMatch(
    new RegExp(`^solana:${invoice.payment.address}\\?amount=10&spl-token=\\w+&reference=${invoice.payment.reference}&`),
  );

  await page.goto(invoice.payment.payment_page);
  const section = page.getByRole("region", { name: "Or pay with a Solana Pay wallet" });
  await expect(section.getByRole("img", { name: /QR code of the payment: 10 USDC/ })).toBeVisible();
  await expect(section.locator("output").filter({ hasText: new RegExp(`^${invoice.payment.reference}$`) })).toBeVisible();
  await expectAccessible(page, "a Solana Pay payment page");

  await page.getByRole("button", { name: "Connect Solana wallet" }).click();
  await page.getByRole("dialog", { name: "Connect a Solana wallet" }).getByRole("button", { name: BURNER_RE }).click();
  await expect(page.getByText(/Connected: Burner wallet \(devnet\)/).first()).toBeVisible();
  await page.getByRole("button", { name: "Get test USDC" }).click();
  await expect(page.getByText(/USDC sent to your wallet/)).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: testInfo.outputPath("solana-pay.png"), fullPage: true });
  await section.getByRole("button", { name: "Pay with the burner wallet by Solana Pay" }).click();
  await expect(section.getByText(/^Sent: transaction \w{64,88}/)).toBeVisible();
  await expect(page.getByText("Paid. Thank you!")).toBeVisible({ timeout: 30_000 });
  const seen = (await merchant.call(`/invoices/${invoice.id}`)).body.data as Invoice;
  expect(seen.payment.received).toBe("10");
});
