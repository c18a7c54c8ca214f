import { expectAccessible, expectNoSidewaysScroll } from "./a11y";
import { expect, test } from "./fixtures";

// The browse pages and the empty wallet pages, on desktop and phone (both projects run this file).
const PAGES = [
  { path: "/", ready: "Gift cards, eSIMs and top-ups" },
  { path: "/search?q=steam", ready: "Results for “steam”" },
  { path: "/search?kind=esim", ready: "All eSIMs" },
  { path: "/products/steam-us", ready: "Steam" },
  { path: "/products/esim-japan", ready: "Japan" },
  { path: "/cart", ready: "Your cart" },
  { path: "/account/orders", ready: "Your orders" },
  { path: "/gift-cards/balance", ready: "Gift card balance" },
];

for (const { path, ready } of PAGES) {
  test(`${path} has no serious accessibility violations and fits the screen`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(ready);
    await page.waitForLoadState("networkidle");
    await expectAccessible(page, path);
    await expectNoSidewaysScroll(page, path);
  });
}
