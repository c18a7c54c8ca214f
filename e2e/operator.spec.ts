import { expectAccessible, expectNoSidewaysScroll } from "./a11y";
import { expect, test } from "./fixtures";
import { E2E_ADMIN_TOKEN } from "./server-env";

test("the operator signs in with the admin token and sees readiness, the upstream supplier, gas wallets and refunds due", async ({ page }) => {
  await page.goto("/operator");
  await expect(page.getByRole("heading", { name: "Operator sign-in" })).toBeVisible();
  const token = page.getByLabel("Admin token");
  await token.fill("adm_not_the_token");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("region", { name: "Operator sign-in" }).getByRole("alert")).toHaveText("That is not the admin token.");
  await expectAccessible(page, "operator sign-in with an error");

  await token.fill(E2E_ADMIN_TOKEN);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Operator", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: /^(Ready|Not ready)$/ })).toBeVisible();
  // The devnet shop resells no one: it says so, and how to.
  await expect(page.getByRole("region", { name: "Upstream supplier" })).toContainText("UPSTREAM_API_URL");
  // Each devnet chain's gas wallet, with its balance.
  const gas = page.getByRole("region", { name: "Gas wallets" }).getByRole("row");
  await expect(gas.filter({ hasText: "eip155:" }).first()).toBeVisible();
  await expect(gas.filter({ hasText: "solana:" })).toHaveCount(1);
  await expect(page.getByRole("region", { name: "Refunds due" })).toBeVisible();
  await expectAccessible(page, "operator page");
  await expectNoSidewaysScroll(page, "operator page");

  // Signing out ends the session: the page asks for the token again.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Operator sign-in" })).toBeVisible();
  await page.goto("/operator");
  await expect(page.getByRole("heading", { name: "Operator sign-in" })).toBeVisible();
});
