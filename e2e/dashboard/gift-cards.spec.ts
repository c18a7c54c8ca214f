import fs from "node:fs";
import { parse } from "csv-parse/sync";
import type { Page } from "@playwright/test";
import { expectAccessible, expectNoSidewaysScroll } from "../a11y";
import { expect, test } from "../fixtures";
import { newMerchant } from "../merchant-api/merchants";
import { screenshot, signIn } from "./session";

// Gift card batches in the dashboard, on desktop and phone: bought from the balance with the form (its refusals shown
// by their fields), listed, opened, and their codes downloaded as CSV; another merchant's batch is not found.

const batchesTable = (page: Page) => page.getByRole("table", { name: "Gift card batches, newest first" });

async function buy(page: Page, fields: { quantity: string; value: string; currency: string }) {
  await page.getByLabel("Quantity", { exact: true }).fill(fields.quantity);
  await page.getByLabel("Value of each card", { exact: true }).fill(fields.value);
  await page.getByLabel("Currency", { exact: true }).fill(fields.currency);
  await page.getByRole("button", { name: "Buy batch" }).click();
}

test("a batch of 25 cards is bought from the balance, opened, and its 25 codes downloaded as CSV; refusals show by their fields", async ({
  page,
  baseURL,
}, testInfo) => {
  const m = await newMerchant(baseURL!, 300);
  await signIn(page, { id: m.api_id, secret: m.api_secret });
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Gift cards" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Gift cards" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No batches yet" })).toBeVisible();
  await expect(page.getByText("$300.00")).toBeVisible();

  // Too many cards: the message is under the quantity, which says it is invalid; what was sent stays in the form.
  await buy(page, { quantity: "1001", value: "10", currency: "USD" });
  const quantity = page.getByLabel("Quantity", { exact: true });
  await expect(quantity).toHaveAttribute("aria-invalid", "true");
  await expect(quantity).toHaveAccessibleDescription(/Enter a whole number of cards from 1 to 1,000\./);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Enter a whole number of cards from 1 to 1,000.");
  await expect(quantity).toHaveValue("1001");
  await expect(page.getByLabel("Value of each card", { exact: true })).toHaveValue("10");
  await expectAccessible(page, "gift cards with a refusal");
  await expectNoSidewaysScroll(page, "gift cards with a refusal");
  await screenshot(page, testInfo, "gift-cards-refused");

  // 25 cards of 10 USD: 250.00 from the balance, issued before the answer.
  await buy(page, { quantity: "25", value: "10", currency: "USD" });
  await expect(page.getByRole("status").filter({ hasText: "Batch bought: 25 of 25 cards issued." })).toBeVisible();
  await expect(quantity).not.toHaveAttribute("aria-invalid");
  await expect(batchesTable(page).getByRole("row")).toHaveCount(2);
  const row = batchesTable(page).getByRole("row").nth(1);
  await expect(row).toContainText("25 × 10 USD");
  await expect(row).toContainText("complete");
  await expect(row).toContainText("25 of 25");
  await expect(row).toContainText("$250.00");
  const batchId = (await row.getByRole("rowheader").innerText()).trim();
  expect(batchId).toMatch(/^gcb_[0-9A-Z]{26}$/);
  await expect(page.getByText("$50.00")).toBeVisible();

  // A balance too low: said under the button, with the way to the balance; nothing charged.
  await buy(page, { quantity: "10", value: "10", currency: "USD" });
  await expect(page.getByRole("main").getByRole("alert")).toContainText("this batch costs 100.00 USD and the balance is 50.00 USD");
  await expect(page.getByRole("main").getByRole("alert").getByRole("link", { name: "Go to the balance" })).toBeVisible();
  await expect(batchesTable(page).getByRole("row")).toHaveCount(2);
  await expectAccessible(page, "gift cards");
  await expectNoSidewaysScroll(page, "gift cards");
  await screenshot(page, testInfo, "gift-cards");

  // The batch's page: its status, its 25 cards with their codes, and the codes as CSV.
  await row.getByRole("link", { name: batchId }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/gift-cards/${batchId}$`));
  await expect(page.getByRole("heading", { level: 1, name: "25 × 10 USD" })).toBeVisible();
  await expect(page.getByText("Every card is issued.")).toBeVisible();
  const cards = page.getByRole("table", { name: `Cards of batch ${batchId}` });
  await expect(cards.getByRole("row")).toHaveCount(26);
  const shown = (await cards.getByRole("rowheader").allInnerTexts()).map((c) => c.trim());
  await expectAccessible(page, "gift card batch");
  await expectNoSidewaysScroll(page, "gift card batch");
  await screenshot(page, testInfo, "gift-card-batch");

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toBe(`gift-cards-${batchId}.csv`);
  const csv = fs.readFileSync((await download.path())!, "utf8");
  expect(csv.split("\r\n")[0]).toBe("id,code,currency,value,balance");
  const records = parse(csv, { columns: true }) as Record<string, string>[];
  expect(records).toHaveLength(25);
  const codes = records.map((r) => r.code!);
  expect(new Set(codes).size).toBe(25);
  for (const r of records) expect(r).toMatchObject({ currency: "USD", value: "10", balance: "10" });
  expect(codes).toEqual(shown);

  // The API sees the same batch and codes.
  const api = await m.call(`/gift-card-batches/${batchId}`);
  expect(api.status).toBe(200);
  expect((api.body.data as { cards: { code: string }[] }).cards.map((c) => c.code)).toEqual(codes);

  const res = await page.request.get(`/dashboard/gift-cards/${batchId}/codes.csv`);
  expect(res.headers()["cache-control"]).toContain("no-store");
  expect(res.headers()["content-disposition"]).toBe(`attachment; filename="gift-cards-${batchId}.csv"`);
});

test.describe("not found", () => {
  test.use({ expectedConsoleErrors: [/status of 404 \(Not Found\)/] });

  test("another merchant's batch is not found, nor its codes; signed out, the codes ask for a session", async ({ page, baseURL }) => {
    const other = await newMerchant(baseURL!, 10);
    const made = await other.call("/gift-card-batches", { body: { quantity: 1, value: "5", currency: "USD" } });
    expect(made.status).toBe(200);
    const theirs = (made.body.data as { id: string }).id;

    const signedOut = await page.request.get(`/dashboard/gift-cards/${theirs}/codes.csv`, { maxRedirects: 0 });
    expect(signedOut.status()).toBe(303);
    expect(signedOut.headers().location).toMatch(/\/dashboard\/sign-in$/);

    const m = await newMerchant(baseURL!, 10);
    await signIn(page, { token: m.api_token });
    expect((await page.goto(`/dashboard/gift-cards/${theirs}`))?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    const csv = await page.request.get(`/dashboard/gift-cards/${theirs}/codes.csv`);
    expect(csv.status()).toBe(404);
    expect(await csv.text()).not.toContain(theirs);
    expect((await page.goto("/dashboard/gift-cards/gcb_01AAAAAAAAAAAAAAAAAAAAAAAA"))?.status()).toBe(404);
  });
});

test.describe("a forged purchase", () => {
  // The form's own request is held back (aborted in the page) to be replayed as a forged one would be sent.
  test.use({ expectedConsoleErrors: [/Failed to fetch|net::ERR_FAILED|An unexpected response was received from the server/] });

  test("the purchase posted with another site's Origin, or none, buys nothing; from the dashboard's own origin it buys", async ({ page, context, baseURL }) => {
    const m = await newMerchant(baseURL!, 20);
    await signIn(page, { token: m.api_token });
    await page.goto("/dashboard/gift-cards");
    let captured: { headers: Record<string, string>; body: Buffer } | undefined;
    await page.route("**/dashboard/gift-cards", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      captured = { headers: await route.request().allHeaders(), body: route.request().postDataBuffer()! };
      await route.abort();
    });
    await buy(page, { quantity: "1", value: "5", currency: "USD" });
    await expect.poll(() => captured).toBeTruthy();
    await page.unrouteAll();
    expect(captured!.headers["next-action"]).toBeTruthy();

    // context.request sends the browser's cookies: the session rides along, as with a forged cross-site form.
    const replay = (origin: string | null) => {
      const headers = Object.fromEntries(Object.entries(captured!.headers).filter(([k]) => k !== "origin" && k !== "cookie" && !k.startsWith(":")));
      return context.request.post(`${baseURL}/dashboard/gift-cards`, {
        headers: origin ? { ...headers, origin } : headers,
        data: captured!.body,
        maxRedirects: 0,
        failOnStatusCode: false,
      });
    };
    for (const origin of ["https://evil.example", null]) {
      expect((await replay(origin)).status(), String(origin)).toBeGreaterThanOrEqual(400);
    }
    expect((await m.call("/gift-card-batches")).body.data).toEqual([]);
    // The very same request from the dashboard's own origin goes through: what refused the others was their Origin.
    expect((await replay(new URL(baseURL!).origin)).status()).toBe(200);
    expect((await m.call("/gift-card-batches")).body.data).toHaveLength(1);
    // Sent once more (a retry after a lost answer): its request key makes it the same purchase, not a second one.
    expect((await replay(new URL(baseURL!).origin)).status()).toBe(200);
    expect((await m.call("/gift-card-batches")).body.data).toHaveLength(1);
    expect(((await m.call("/accounts/balance")).body.data as { balance: number }).balance).toBe(1_500);
  });
});
