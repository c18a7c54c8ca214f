import { expect, test } from "./fixtures";

test("home -> search steam -> product page -> add to cart", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Gift cards, eSIMs and top-ups");
  await expect(page.getByRole("link", { name: "Amazon", exact: true })).toBeVisible();

  await page
    .getByRole("searchbox", { name: /Search gift cards/ })
    .first()
    .fill("steam");
  await page
    .getByRole("searchbox", { name: /Search gift cards/ })
    .first()
    .press("Enter");
  await expect(page).toHaveURL(/\/search\?q=steam/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “steam”");

  const results = page.locator("main ul li a[href^='/products/']");
  await expect(results.first()).toContainText("Steam");
  const count = await results.count();
  expect(count).toBeGreaterThan(3);
  // Exact brand matches rank first: the first results are all Steam products.
  for (const text of await results
    .locator("h3")
    .allTextContents()
    .then((t) => t.slice(0, 3)))
    expect(text).toMatch(/Steam/);

  await results.first().click();
  await expect(page).toHaveURL(/\/products\/steam-/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Steam");
  const options = page.getByRole("radio");
  expect(await options.count()).toBeGreaterThan(1);
  await expect(page.getByText(/\$\d+\.\d{2}/).first()).toBeVisible();
  await expect(page.getByText(/\d+\.\d{2} USDC/).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "How to redeem" })).toBeVisible();

  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status")).toContainText("Added 1 ×");
  await expect(page.getByRole("link", { name: /Cart/ }).first()).toContainText("1");

  await page.getByRole("link", { name: "View cart" }).click();
  await expect(page.getByRole("heading", { name: "Your cart" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Cart items" }).getByRole("listitem")).toHaveCount(1);
  await page.reload();
  await expect(page.getByRole("list", { name: "Cart items" }).getByRole("listitem")).toHaveCount(1);
  await page.getByRole("button", { name: /Remove/ }).click();
  await expect(page.getByText("Your cart is empty.")).toBeVisible();
});

test.describe(() => {
  // The browser logs the 404 of the page itself; nothing else may fail.
  test.use({ expectedConsoleErrors: [/status of 404 .*\/products\/no-such-product-here\)$/] });

  test("an unknown product answers 404 with a way back", { tag: "@logic" }, async ({ page }) => {
    const response = await page.goto("/products/no-such-product-here");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "We could not find that product" })).toBeVisible();
    await page.getByRole("link", { name: "Back to the shop" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test("a product priced in another currency shows the exchange rate and the day of the rates", { tag: "@logic" }, async ({ page }) => {
  await page.goto("/search?kind=gift_card&country=DE");
  await page.locator("main ul li a[href^='/products/']").first().click();
  await expect(page).toHaveURL(/\/products\//);
  const rate = page.getByTestId("exchange-rate");
  await expect(rate).toContainText(/^1 EUR = \d+\.\d+ USD/);
  await expect(rate).toContainText(/rates of \d{4}-\d{2}-\d{2}/);
});

test("a search with no results gives a hint and a way out", { tag: "@logic" }, async ({ page }) => {
  await page.goto("/search?q=qwxzvbnm");
  await expect(page.getByRole("heading", { name: /No products found for “qwxzvbnm”/ })).toBeVisible();
  await expect(page.getByText(/Try a brand name/)).toBeVisible();
  await page.getByRole("link", { name: "Browse everything" }).click();
  await expect(page).toHaveURL(/\/search$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("All products");
});

test("filters narrow by kind and country and keep the query", async ({ page }) => {
  await page.goto("/search?q=japan");
  await page.getByLabel("Kind").selectOption("esim");
  await expect(page).toHaveURL(/kind=esim/);
  await expect(page).toHaveURL(/q=japan/);
  await expect(page.locator("main ul li").first()).toContainText("eSIM");
  // The form submitted as a full page load: the select submits on change only once the new page is hydrated.
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Country", { exact: true }).selectOption("JP");
  await expect(page).toHaveURL(/country=JP/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("in Japan");
});

test("typos still find the brand", { tag: "@logic" }, async ({ page }) => {
  await page.goto("/search?q=netflx");
  await expect(page.locator("main ul li").first()).toContainText("Netflix");
});

test("the home page remembers the country and switches kinds", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Shop for").selectOption("DE");
  await expect(page.getByRole("heading", { name: /for Germany/ })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Shop for")).toHaveValue("DE");
  await page.getByRole("link", { name: "eSIMs" }).last().click();
  await expect(page).toHaveURL(/kind=esim/);
  await expect(page.getByRole("heading", { name: /Popular esims for Germany/i })).toBeVisible();
  await page.getByLabel("Shop for").selectOption("");
  await expect(page.getByRole("heading", { name: /Popular esims$/i })).toBeVisible();
});

test("a top-up asks for a phone number the operator serves", { tag: "@logic" }, async ({ page }) => {
  await page.goto("/search?kind=topup&country=NG");
  await page.locator("main ul li a").first().click();
  const phone = page.getByLabel("Phone number to top up");
  await expect(phone).toBeVisible();
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByText("Enter the phone number to top up.")).toBeVisible();
  await phone.fill("+14155550100");
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByText(/This operator serves numbers starting with/)).toBeVisible();
});

// Runs in both projects: the phone project is the 390 px wide screen.
test("browse pages fit the screen without sideways scrolling", async ({ page }) => {
  for (const path of ["/", "/search?q=steam", "/products/amazon-us"]) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
  }
});
