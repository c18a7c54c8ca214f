import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/** No serious or critical axe violations (WCAG 2.1 A and AA rules) on the page as it is now. */
export async function expectAccessible(page: Page, what: string) {
  // After a server action the page's metadata streams in again: wait for its title rather than catch it missing (a
  // page that has none still fails, here).
  await expect(page, `${what} has a title`).toHaveTitle(/\S/);
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    `axe on ${what}`,
  ).toEqual([]);
}

/**
 * The page fits the window's width: nothing to scroll sideways (phone layouts). Measured against the viewport the
 * test set, not `window.innerWidth`: with mobile emulation a too-wide page zooms out, and innerWidth grows with it.
 */
export async function expectNoSidewaysScroll(page: Page, what: string) {
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  const width = page.viewportSize()?.width ?? (await page.evaluate(() => window.innerWidth));
  expect(scroll, `${what} is wider than the window`).toBeLessThanOrEqual(width);
}
