import { expect, test } from "../fixtures";
import { addToCart, checkoutCart, connectEvm, freshEvmWallet, fundAndPay, pickPackage } from "./flow";

test("an eSIM is delivered as a QR code, then topped up from the account page; another wallet sees none of it", async ({ page, browser, baseURL }) => {
  test.setTimeout(60_000);
  await freshEvmWallet(page, baseURL!);

  await addToCart(page, "test-esim-product", "1GB, 7 Days");
  await page.goto("/cart");
  await connectEvm(page);
  const invoiceId = await checkoutCart(page);
  await fundAndPay(page);

  const card = page.getByRole("article").filter({ hasText: "Test eSIM · 1GB, 7 Days" });
  const qr = card.getByRole("img", { name: "QR code to install the eSIM" });
  await expect(qr).toBeVisible();
  // A real QR image (PNG data URL drawn from the LPA activation string), with the steps to install it.
  expect(await qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
  await expect(card.getByText("Add eSIM")).toBeVisible();
  // One list of steps, not two that overlap (the test product's own words are a note, no steps).
  await expect(card.getByRole("list")).toHaveCount(1);
  await expect(card.getByText("Nothing to install: the QR code and activation code are made up for the test.")).toBeVisible();
  await expect(card.locator("output").filter({ hasText: /^LPA:1\$/ })).toBeVisible();
  const iccid = (await card
    .locator("output")
    .filter({ hasText: /^89\d{17,18}$/ })
    .textContent())!;
  await page.screenshot({ path: "test-results/checkout-esim-qr.png", fullPage: true });

  // The account page lists the eSIM with a top-up link that carries its ICCID to the product page.
  await page.goto("/account/esims");
  const esim = page.getByRole("listitem").filter({ hasText: iccid });
  await expect(esim).toContainText("1GB, 7 Days");
  await esim.getByRole("link", { name: "Top up this eSIM" }).click();
  await expect(page).toHaveURL(new RegExp(`/products/test-esim-product\\?iccid=${iccid}$`));
  await expect(page.getByRole("note")).toContainText(`Top-up for your eSIM ${iccid}`);
  await pickPackage(page, "3GB, 30 Days");
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added" })).toContainText("as a top-up");
  await page.goto("/cart");
  await expect(page.getByRole("list", { name: "Cart items" })).toContainText(iccid);
  const topupInvoice = await checkoutCart(page);
  expect(topupInvoice).not.toBe(invoiceId);
  await fundAndPay(page);

  await page.goto("/account/esims");
  await expect(page.getByRole("listitem").filter({ hasText: iccid }).first()).toContainText("3GB, 30 Days");
  await expect(page.getByRole("listitem").filter({ hasText: iccid }).first()).toContainText("1GB, 7 Days");
  await page.screenshot({ path: "test-results/checkout-esim-account.png", fullPage: true });

  // Another wallet, in another browser, signs in and opens the same invoice: it is refused, and lists nothing.
  const other = await browser.newContext({ baseURL });
  try {
    const stranger = await other.newPage();
    await freshEvmWallet(stranger, baseURL!);
    await stranger.goto(`/invoices/${invoiceId}`);
    await connectEvm(stranger);
    await stranger.getByRole("button", { name: "Sign in" }).click();
    await expect(stranger.getByRole("main").getByRole("alert")).toContainText("This invoice belongs to another wallet");
    await expect(stranger.getByText(iccid)).toHaveCount(0);
    await expect(stranger.locator("output")).toHaveCount(0);
    // An invoice number nobody issued says so, and leads to the orders.
    expect((await stranger.goto("/invoices/inv_01AAAAAAAAAAAAAAAAAAAAAAAA"))?.status()).toBe(404);
    await expect(stranger.getByRole("heading", { level: 1, name: "No such invoice" })).toBeVisible();
    await stranger.getByRole("main").getByRole("link", { name: "Your orders" }).click();
    await expect(stranger).toHaveURL(/\/account\/orders$/);
    await expect(stranger.getByText("No orders yet.")).toBeVisible();
  } finally {
    await other.close();
  }
});
