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

test("the home page's search box is as tall as its button, tall enough to tap, and beside or above it", async ({ page }, testInfo) => {
  await page.goto("/");
  const box = await page.locator("#home-search").boundingBox();
  const button = await page
    .getByRole("search")
    .filter({ has: page.locator("#home-search") })
    .getByRole("button", { name: "Search" })
    .boundingBox();
  expect(box && button).toBeTruthy();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  expect(button!.height).toBeGreaterThanOrEqual(44);
  expect(Math.abs(box!.height - button!.height)).toBeLessThanOrEqual(1);
  // Side by side (same top) on a wide screen; stacked (same left, same width) on a phone.
  if (box!.y === button!.y) expect(box!.x + box!.width).toBeLessThanOrEqual(button!.x);
  else expect([box!.x, box!.width]).toEqual([button!.x, button!.width]);
  await page.screenshot({ path: testInfo.outputPath("home.png") });
});

test("the categories are a tap away on any screen: a row in the header, a menu on a phone that closes once one is chosen", async ({
  page,
  isMobile,
}, testInfo) => {
  await page.goto("/");
  const header = page.getByRole("banner");
  const categories = header.getByRole("navigation", { name: "Categories" });
  if (isMobile) {
    await expect(categories).toBeHidden();
    await header.getByLabel("Browse categories").click();
    await expect(categories).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: testInfo.outputPath("phone-menu.png") });
    // Like a menu: a tap elsewhere closes it, and Escape, back on its button.
    await page.mouse.click(4, 600); // the page's margin, beside the content
    await expect(categories).toBeHidden();
    await header.getByLabel("Browse categories").click();
    await expect(categories).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(categories).toBeHidden();
    await expect(header.getByLabel("Browse categories")).toBeFocused();
    await header.getByLabel("Browse categories").click();
  }
  await expect(categories.getByRole("link")).toHaveText(["Gift cards", "eSIMs", "Top-ups"]);
  await categories.getByRole("link", { name: "eSIMs" }).click();
  await expect(page).toHaveURL(/\/search\?kind=esim$/);
  if (isMobile) await expect(categories).toBeHidden();
  else await expect(categories).toBeVisible();
  // On a phone too the brand, the orders and the cart share the header's first row (the menu goes before the search).
  const top = async (name: string | RegExp) => (await header.getByRole("link", { name }).first().boundingBox())!.y;
  expect(Math.abs((await top("Storefront")) - (await top(/^Cart/)))).toBeLessThan(12);
});

test("a product page's amount picker starts on the first screen, on a phone too", async ({ page }) => {
  await page.goto("/products/steam-us");
  await expect(page.getByRole("heading", { level: 1, name: /Steam/ })).toBeInViewport();
  await expect(page.getByText("Choose an amount", { exact: true })).toBeInViewport();
});

test("the devnet's home page shows the first ten minutes: a purchase, a demo merchant, the agent", { tag: "@logic" }, async ({ page }) => {
  await page.goto("/");
  const steps = page.getByRole("region", { name: "First ten minutes on this devnet" });
  await expect(steps.getByRole("listitem")).toHaveCount(3);
  await expect(steps.getByText("Burner wallet (devnet)")).toBeVisible();
  await expect(steps.getByText("npm run agent")).toBeVisible();
  await steps.getByRole("link", { name: "Create a demo merchant" }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
  await expect(page.getByRole("button", { name: "Create a demo merchant" })).toBeVisible();
});

test("the home page counts the catalog's products as llms.txt does: both from the catalog", { tag: "@logic" }, async ({ page, request }) => {
  const llms = await (await request.get("/llms.txt")).text();
  const [, products, brands] = /\((\d+) products of (\d+) brands\)/.exec(llms) ?? [];
  expect(Number(products)).toBeGreaterThan(100);
  expect(Number(brands)).toBeGreaterThan(10);
  await page.goto("/");
  const count = Number(products).toLocaleString("en-US");
  await expect(page.getByText(new RegExp(`^${count} products: gift cards from \\d+ brands like \\w+`))).toBeVisible();
});

test("a package is named in its product's currency, on the product page and in the cart", { tag: "@logic" }, async ({ page }) => {
  await page.goto("/products/amazon-gb");
  const first = page.getByRole("group", { name: "Choose an amount" }).getByRole("radio").first();
  await expect(first).toHaveAccessibleName(/^£\d+(?![.\d])/);
  const label = /^£\d+/.exec((await first.evaluate((el) => el.closest("label")?.textContent ?? "")).trim())![0];
  await page.getByRole("button", { name: "Add to cart" }).click();
  await expect(page.getByRole("status")).toContainText(`Added 1 × Amazon Gift Card UK (${label})`);
  await page.goto("/cart");
  await expect(page.getByRole("list", { name: "Cart items" }).getByText(label, { exact: true })).toBeVisible();
  await expect(page.getByText(/^\d+\.\d{2} USDC$/)).toBeVisible();
});

test.describe(() => {
  // The browser logs the 404s of the pages themselves; nothing else may fail.
  // (One pattern: a two-element array would be read as a value and its fixture options.)
  test.use({ expectedConsoleErrors: [/status of (404 .*\/(products\/no-such-product-here|no-such-page|invoices\/[^/]+|pay\/[^/]+)|400 .*\/search\?q=.*)\)$/] });

  test("an unknown address answers 404 inside the shop's header and footer, with a search and the way home", async ({ page }, testInfo) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("banner").getByRole("link", { name: /Cart/ })).toBeVisible();
    await expect(page.getByRole("contentinfo")).toContainText("paid in USDC");
    await expect(page.getByRole("main").getByRole("searchbox")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("not-found.png"), fullPage: true });
    await page.getByRole("main").getByRole("link", { name: "Go to the shop" }).click();
    await expect(page).toHaveURL(/\/$/);
    // A shop page that finds nothing at its address (the payment page of no invoice): the same page, in one frame.
    expect((await page.goto("/pay/not-an-invoice"))?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("banner")).toHaveCount(1);
    await expect(page.getByRole("contentinfo")).toHaveCount(1);
    // An address that cannot be read (a NUL byte, broken UTF-8): refused before any page renders, with a page that says
    // so, a search that works and the way home.
    expect((await page.goto("/search?q=%00%ff"))?.status()).toBe(400);
    await expect(page.getByRole("heading", { level: 1, name: "This address cannot be read" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText("is not valid UTF-8");
    await page.getByRole("searchbox", { name: "Search the shop" }).fill("steam");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\/search\?q=steam$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("an unknown invoice says there is no such invoice, with the way to the orders", async ({ page }, testInfo) => {
    for (const id of ["inv_01AAAAAAAAAAAAAAAAAAAAAAAA", "not-an-invoice"]) {
      const response = await page.goto(`/invoices/${id}`);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "No such invoice" })).toBeVisible();
      await expect(page.getByRole("banner").getByRole("link", { name: /Cart/ })).toBeVisible();
    }
    await page.screenshot({ path: testInfo.outputPath("no-such-invoice.png"), fullPage: true });
    await page.getByRole("main").getByRole("link", { name: "Your orders" }).click();
    await expect(page).toHaveURL(/\/account\/orders$/);
  });

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
