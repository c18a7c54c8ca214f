import { expectAccessible, expectNoSidewaysScroll } from "../a11y";
import { expect, test } from "../fixtures";
import { newMerchant } from "../merchant-api/merchants";
import { screenshot, signIn } from "./session";

test("the overview shows the balance, today's sales, orders by status and a failed order that needs attention", async ({ page, baseURL }, testInfo) => {
  const m = await newMerchant(baseURL!, 50);
  const buy = async (product: string) => {
    const res = await m.call("/invoices", { body: { products: [{ product_id: product, value: 10 }], payment_method: "balance", auto_pay: true } });
    expect(res.status).toBe(200);
    return res.body.data as { id: string; payment: { price: number } };
  };
  const kept = await buy("test-gift-card-code");
  await buy("test-gift-card-code-fail");
  // Both orders final: one delivered, one refunded to the balance.
  await expect
    .poll(async () => ((await m.call("/orders")).body.data as { status: string }[]).map((o) => o.status).sort(), { timeout: 20_000 })
    .toEqual(["delivered", "refunded"]);
  const balance = ((await m.call("/accounts/balance")).body.data as { balance: number }).balance;
  const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

  await signIn(page, { id: m.api_id, secret: m.api_secret });
  const figures = page.getByRole("region", { name: "Balance and sales" });
  await expect(figures.getByText(usd(balance), { exact: true })).toBeVisible();
  // Sales are what was kept: the refunded order does not count.
  const today = figures.locator("div").filter({ has: page.getByRole("heading", { name: "Sales today" }) });
  await expect(today).toContainText(usd(kept.payment.price));
  await expect(today).toContainText("1 order");

  const statuses = page.getByRole("region", { name: "Orders by status" });
  await expect(statuses.getByRole("link", { name: /delivered 1/ })).toBeVisible();
  await expect(statuses.getByRole("link", { name: /refunded 1/ })).toBeVisible();
  await expect(page.getByRole("region", { name: "Sales, last 30 days" }).getByRole("table")).toContainText(usd(kept.payment.price));
  await expect(page.getByRole("region", { name: "Needs attention" })).toContainText("Test Gift Card (Failing)");
  await expect(page.getByRole("region", { name: "Needs attention" })).toContainText("Refunded to your balance.");

  await expectAccessible(page, "overview with orders");
  await expectNoSidewaysScroll(page, "overview with orders");
  await screenshot(page, testInfo, "overview-sales");
});
