import path from "node:path";
import type { BrowserContext, Page, TestInfo } from "@playwright/test";
import { expect } from "../fixtures";

export const COOKIE = "dash_session";

/** Signs in on the dashboard's sign-in page with a key pair or a personal token, and waits for the overview. */
export async function signIn(page: Page, credentials: { id: string; secret: string } | { token: string }) {
  await page.goto("/dashboard/sign-in");
  await fillSignIn(page, credentials);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
}

/** Fills the sign-in form and submits it, without waiting for the outcome. */
export async function fillSignIn(page: Page, credentials: { id: string; secret: string } | { token: string }) {
  if ("token" in credentials) {
    await chooseMode(page, "Personal token");
    await page.locator('input[name="api_token"]').fill(credentials.token);
  } else {
    await chooseMode(page, "API ID and secret");
    await page.getByLabel("API ID", { exact: true }).fill(credentials.id);
    await page.getByLabel("API secret", { exact: true }).fill(credentials.secret);
  }
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** The mode radios are drawn as buttons (the input itself is visually hidden): click the label, as a person does. */
async function chooseMode(page: Page, name: string) {
  await page
    .locator("label")
    .filter({ has: page.getByRole("radio", { name }) })
    .click();
  await expect(page.getByRole("radio", { name })).toBeChecked();
}

/**
 * The sign-in form's error: the alert of its section (Next.js's route announcer is an alert too, outside the main
 * region, and on the devnet the demo merchant's section below has its own).
 */
export const signInError = (page: Page) => page.getByRole("region", { name: "Merchant sign-in" }).getByRole("alert");

export async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === COOKIE);
}

/** A full-page screenshot under test-results/screenshots/, named by project: for looking at, not compared. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: path.join(testInfo.project.outputDir, "screenshots", `dashboard-${name}-${testInfo.project.name}.png`), fullPage: true });
}
