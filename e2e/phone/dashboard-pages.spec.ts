import { expectAccessible, expectNoSidewaysScroll } from "../a11y";
import { signIn } from "../dashboard/session";
import { expect, test } from "../fixtures";
import { newMerchant } from "../merchant-api/merchants";

// The dashboard's pages at a phone's width, with rows in their tables: each fits the screen and passes axe. Their
// flows run on desktop (e2e/dashboard; the sign-in, the navigation and the overview run on the phone too).
test("every dashboard page fits a phone's screen and is accessible, with rows in its tables", async ({ page, baseURL }, testInfo) => {
  const m = await newMerchant(baseURL!, 100);
  const bought = await m.call("/invoices", {
    body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true },
  });
  expect(bought.status).toBe(200);
  const invoice = bought.body.data as { id: string; orders: { id: string }[] };
  const batch = await m.call("/gift-card-batches", { body: { quantity: 2, value: "5", currency: "USD" } });
  expect(batch.status).toBe(200);
  const batchId = (batch.body.data as { id: string }).id;
  await expect.poll(async () => ((await m.call("/orders")).body.data as { status: string }[]).map((o) => o.status), { timeout: 20_000 }).toEqual(["delivered"]);

  await signIn(page, { id: m.api_id, secret: m.api_secret });
  // Every section tab is on the screen (they wrap onto a second row), none hidden in a strip that scrolls.
  const tabs = page.getByRole("navigation", { name: "Dashboard" }).getByRole("link");
  await expect(tabs).toHaveCount(7);
  const width = page.viewportSize()!.width;
  for (const tab of await tabs.all()) {
    await expect(tab).toBeInViewport({ ratio: 1 });
    const box = (await tab.boundingBox())!;
    expect(box.x, `${await tab.textContent()} starts on the screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${await tab.textContent()} ends on the screen`).toBeLessThanOrEqual(width);
  }
  await page.screenshot({ path: testInfo.outputPath("dashboard-tabs.png") });
  for (const path of [
    "/dashboard/orders",
    `/dashboard/orders/${invoice.orders[0]!.id}`,
    "/dashboard/invoices",
    `/dashboard/invoices/${invoice.id}`,
    "/dashboard/webhooks",
    "/dashboard/gift-cards",
    `/dashboard/gift-cards/${batchId}`,
    "/dashboard/keys",
    "/dashboard/balance",
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }), path).toBeVisible();
    await expectAccessible(page, path);
    await expectNoSidewaysScroll(page, path);
  }
  // The orders' filters leave room for the orders: the first one is on the first screen.
  await page.goto("/dashboard/orders");
  await expect(page.getByRole("search", { name: "Orders" })).toBeVisible();
  await expect(page.getByRole("link", { name: invoice.orders[0]!.id })).toBeInViewport();
});
