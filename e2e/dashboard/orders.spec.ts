import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { parse } from "csv-parse/sync";
import { expectAccessible, expectNoSidewaysScroll } from "../a11y";
import { expect, test } from "../fixtures";
import { newMerchant } from "../merchant-api/merchants";
import { screenshot, signIn } from "./session";

// Orders and invoices in the dashboard, on desktop and phone: a balance-paid order appears with its code, the table
// filters, sorts and exports, and an invoice shows its payment, orders and webhook deliveries.

type Order = { id: string; status: string; invoice: { id: string }; redemption_info?: { code?: string } };

async function merchantWithOrders(baseURL: string, webhookUrl?: string) {
  const m = await newMerchant(baseURL, 100);
  const buy = async (product: string, value: number) => {
    const res = await m.call("/invoices", {
      body: { products: [{ product_id: product, value }], payment_method: "balance", auto_pay: true, ...(webhookUrl ? { webhook_url: webhookUrl } : {}) },
    });
    expect(res.status).toBe(200);
    return (res.body.data as { id: string; orders: { id: string }[] }).orders[0]!.id;
  };
  const orders = { code: await buy("test-gift-card-code", 50), failing: await buy("test-gift-card-code-fail", 20), link: await buy("test-gift-card-link", 10) };
  await expect
    .poll(async () => ((await m.call("/orders")).body.data as Order[]).map((o) => o.status).sort(), { timeout: 20_000 })
    .toEqual(["delivered", "delivered", "refunded"]);
  return { m, orders };
}

const ordersTable = (page: import("@playwright/test").Page) => page.getByRole("table", { name: "Orders" });

test("a balance-paid order appears with its code; the table filters, sorts and exports CSV", async ({ page, baseURL }, testInfo) => {
  const { m, orders } = await merchantWithOrders(baseURL!);
  const apiOrder = (await m.call(`/orders/${orders.code}`)).body.data as Order;
  const code = apiOrder.redemption_info?.code;
  expect(code).toBeTruthy();

  await signIn(page, { id: m.api_id, secret: m.api_secret });
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Orders" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  await expect(ordersTable(page).getByRole("row")).toHaveCount(4);
  await expect(page.getByRole("navigation", { name: "Orders pages" })).toContainText("1–3 of 3 orders");
  await expectAccessible(page, "orders");
  await expectNoSidewaysScroll(page, "orders");
  await screenshot(page, testInfo, "orders");

  // Filter: refunded only.
  await page.getByLabel("Status").selectOption("refunded");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=refunded/);
  await expect(ordersTable(page).getByRole("row")).toHaveCount(2);
  await expect(ordersTable(page)).toContainText(orders.failing);
  await expect(ordersTable(page)).toContainText("Test Gift Card (Failing)");

  // The export has the same filter: one refunded order, without codes.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync((await download.path())!, "utf8");
  const records = parse(csv, { columns: true }) as Record<string, string>[];
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({ order_id: orders.failing, status: "refunded", product_id: "test-gift-card-code-fail", refund_usd: records[0]!.price_usd });

  // Search by product, then clear; sort by price, lowest first.
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/dashboard\/orders$/);
  // The form shows the cleared query, not what it held before.
  await expect(page.getByLabel("Status")).toHaveValue("");
  await page.getByRole("searchbox", { name: "Search" }).fill("link");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(ordersTable(page).getByRole("row")).toHaveCount(2);
  await expect(ordersTable(page)).toContainText(orders.link);
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/dashboard\/orders$/);
  await page.getByLabel("Sort").selectOption("price:asc");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(ordersTable(page).getByRole("rowheader").first()).toHaveText(orders.link);
  await expect(ordersTable(page).getByRole("rowheader").last()).toHaveText(orders.code);
  if (testInfo.project.name === "desktop") {
    // The column headers sort too, and say how.
    await ordersTable(page).getByRole("link", { name: /Price/ }).click();
    await expect(ordersTable(page).getByRole("columnheader", { name: /Price/ })).toHaveAttribute("aria-sort", "descending");
    await expect(ordersTable(page).getByRole("rowheader").first()).toHaveText(orders.code);
  }

  // The order page: the timeline, and the code only once asked for.
  await ordersTable(page).getByRole("link", { name: orders.code }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Test Gift Card (Code and PIN)");
  const timeline = page.getByRole("list", { name: "Order status history" });
  await expect(timeline.getByRole("listitem")).toHaveCount(3);
  await expect(timeline).toContainText("Ordered");
  await expect(timeline).toContainText("Paid");
  await expect(timeline).toContainText("Delivered");
  await expect(page.getByText(code!)).toHaveCount(0);
  await page.getByRole("button", { name: "Show redemption details" }).click();
  await expect(page.locator("output").filter({ hasText: code! })).toBeVisible();
  await expectAccessible(page, "order with its code");
  await expectNoSidewaysScroll(page, "order with its code");
  await screenshot(page, testInfo, "order");

  // A refunded order says how much went back.
  await page.goto(`/dashboard/orders/${orders.failing}`);
  await expect(page.getByRole("list", { name: "Order status history" })).toContainText("back to your balance");
  await expect(page.getByText("This order was not delivered, so it has no redemption details.")).toBeVisible();
});

test("an invoice shows its payment, its orders and the webhook deliveries for it", async ({ page, baseURL }, testInfo) => {
  const received: string[] = [];
  const receiver = http.createServer((req, res) => {
    received.push(String(req.headers["webhook-id"]));
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const { m, orders } = await merchantWithOrders(baseURL!, url);
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(3);
    const invoiceId = ((await m.call(`/orders/${orders.code}`)).body.data as Order).invoice.id;

    await signIn(page, { token: m.api_token });
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Invoices" }).click();
    const table = page.getByRole("table", { name: "Invoices" });
    await expect(table.getByRole("row")).toHaveCount(4);
    await page.getByLabel("Status").selectOption("complete");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(table.getByRole("row")).toHaveCount(4);
    await page.getByLabel("Status").selectOption("unpaid");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByRole("heading", { name: "No invoices match" })).toBeVisible();
    await page.getByRole("link", { name: "see every invoice" }).click();
    await expectAccessible(page, "invoices");
    await expectNoSidewaysScroll(page, "invoices");

    await table.getByRole("link", { name: invoiceId }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${invoiceId}`);
    const payment = page.getByRole("region", { name: "Payment" });
    await expect(payment).toContainText("Balance");
    await expect(payment).toContainText(/Debit #\d+ on your balance/);
    await expect(page.getByRole("table", { name: `Orders of invoice ${invoiceId}` })).toContainText(orders.code);
    const hooks = page.getByRole("table", { name: `Webhook deliveries of invoice ${invoiceId}` });
    await expect(hooks).toContainText(url);
    await expect(hooks).toContainText("delivered");
    await expect(hooks).toContainText("invoice.complete");
    await expectAccessible(page, "invoice");
    await expectNoSidewaysScroll(page, "invoice");
    await screenshot(page, testInfo, "invoice");
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test("the CSV export asks for a session", async ({ request }) => {
  const res = await request.get("/dashboard/orders/export.csv", { maxRedirects: 0 });
  expect(res.status()).toBe(303);
  expect(res.headers().location).toMatch(/\/dashboard\/sign-in$/);
});
