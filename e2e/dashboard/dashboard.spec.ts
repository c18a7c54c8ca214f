import { expectAccessible, expectNoSidewaysScroll } from "../a11y";
import { expect, test } from "../fixtures";
import { newMerchant } from "../merchant-api/merchants";
import { fillSignIn, screenshot, sessionCookie, signIn, signInError } from "./session";

// The merchant dashboard in the browser, on desktop and phone (both projects run this file): sign-in with a key
// pair or a personal token, sign-out, and API keys made and revoked, checked against the merchant API over HTTP.

test("sign-in with an API ID and secret; a wrong secret gets one message that does not say which part was wrong", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const m = await newMerchant(baseURL!, 25);

  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
  await expect(page.getByRole("heading", { level: 1, name: "Merchant sign-in" })).toBeVisible();
  await expectAccessible(page, "sign-in");
  await expectNoSidewaysScroll(page, "sign-in");
  await screenshot(page, testInfo, "sign-in");

  await fillSignIn(page, { id: m.api_id, secret: `${m.api_secret}x` });
  await expect(signInError(page)).toHaveText("Those credentials are not valid.");
  await fillSignIn(page, { id: "ak_nobody", secret: m.api_secret });
  await expect(signInError(page)).toHaveText("Those credentials are not valid.");
  expect(await sessionCookie(context)).toBeUndefined();
  await expectAccessible(page, "sign-in with an error");

  await fillSignIn(page, { id: m.api_id, secret: m.api_secret });
  await expect(page).toHaveURL(/\/dashboard$/);
  const cookie = await sessionCookie(context);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/dashboard", secure: false });
  // 12 hours, give or take the test's own time.
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(11.9 * 3600_000);

  await expect(page.getByRole("banner")).toContainText("Signed in as E2E merchant");
  await expect(page.getByText("$25.00")).toBeVisible();
  await expect(page.getByRole("heading", { name: "No orders yet: make your first API call" })).toBeVisible();
  const firstCall = `curl -u "YOUR_API_ID:YOUR_API_SECRET" ${baseURL}/api/v2/ping`;
  await expect(page.getByLabel("first API call")).toHaveText(firstCall);
  await expectAccessible(page, "overview");
  await expectNoSidewaysScroll(page, "overview");
  await screenshot(page, testInfo, "overview");
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await page.getByRole("button", { name: "Copy first API call" }).click();
  await expect(page.getByRole("status").filter({ hasText: "first API call copied" })).toBeAttached();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstCall);
  await expect(page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  // The invoices page's empty state speaks of invoices.
  await page.goto("/dashboard/invoices");
  await expect(page.getByRole("heading", { name: "No invoices yet: make your first API call" })).toBeVisible();
  await page.goto("/dashboard");

  // A signed-in merchant going to the sign-in page lands on the overview.
  await page.goto("/dashboard/sign-in");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("on the devnet, a demo merchant from the sign-in page: its key shown once, the browser signed in, then the overview", async ({
  page,
  context,
  request,
  baseURL,
}, testInfo) => {
  await page.goto("/dashboard/sign-in");
  await page.getByRole("button", { name: "Create a demo merchant" }).click();
  const ready = page.getByRole("region", { name: /^Demo merchant [0-9a-f]{6} is ready$/ });
  await expect(ready).toBeVisible();
  await expect(ready.getByRole("heading", { level: 1 })).toBeFocused();
  await expect(ready).toContainText("They are shown only this once");
  await expect(ready).toContainText("$100.00 of test balance");
  const name = (await ready.getByRole("heading", { level: 1 }).textContent())!.replace(/ is ready$/, "");
  const apiId = (await ready.getByLabel("API ID", { exact: true }).textContent())!;
  const apiSecret = (await ready.getByLabel("API secret", { exact: true }).textContent())!;
  expect(apiId).toMatch(/^ak_/);
  expect(apiSecret).toMatch(/^sk_/);
  await expect(ready.getByLabel("Personal token", { exact: true })).toHaveText(/^pt_/);
  // The sign-in form gave way to the credentials; the session cookie is already set.
  await expect(page.getByRole("heading", { name: "Merchant sign-in" })).toHaveCount(0);
  expect(await sessionCookie(context)).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/dashboard" });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await ready.getByRole("button", { name: "Copy API secret" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiSecret);
  await expectAccessible(page, "demo merchant created");
  await expectNoSidewaysScroll(page, "demo merchant created");
  await screenshot(page, testInfo, "demo-merchant");

  await ready.getByRole("link", { name: "Continue to the dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await expect(page.getByRole("banner")).toContainText(`Signed in as ${name}`);
  await expect(page.getByText("$100.00")).toBeVisible();
  // The key shown is the account's, on the merchant API too; shown once, it is not on the overview.
  const ping = await request.get("/api/v2/ping", { headers: { Authorization: `Basic ${Buffer.from(`${apiId}:${apiSecret}`).toString("base64")}` } });
  expect(ping.status()).toBe(200);
  expect(await page.content()).not.toContain(apiSecret);
});

test("sign-in with a personal token, and sign-out", async ({ page, context, baseURL }) => {
  const m = await newMerchant(baseURL!, 0);
  await signIn(page, { token: m.api_token });
  // Every nav section answers (its page, or a placeholder until it is built), and the tabs say where you are.
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await nav.getByRole("link", { name: "Orders" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Orders" })).toHaveAttribute("aria-current", "page");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in\?ended=signed-out$/);
  await expect(page.getByRole("status").filter({ hasText: "You are signed out." })).toBeVisible();
  expect(await sessionCookie(context)).toBeUndefined();
  await page.goto("/dashboard/keys");
  await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
});

test("a new key's secret is shown once and works on the API; revoked, the API answers 401 to it", async ({ page, baseURL }, testInfo) => {
  const m = await newMerchant(baseURL!, 10);
  await signIn(page, { id: m.api_id, secret: m.api_secret });
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
  // The key signed in with is marked, and was just used.
  await expect(page.getByRole("row", { name: /Default business key/ })).toContainText("Signed in with this key");

  await page.getByLabel("Name").fill("CI key");
  await page.getByRole("radio", { name: /Business key/ }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const issued = page.getByRole("region", { name: /“CI key” created/ });
  await expect(issued).toBeVisible();
  await expect(issued).toContainText("It is shown only this once");
  const apiId = (await issued.getByLabel("API ID", { exact: true }).textContent())!;
  const apiSecret = (await issued.getByLabel("API secret", { exact: true }).textContent())!;
  expect(apiId).toMatch(/^ak_/);
  expect(apiSecret).toMatch(/^sk_/);
  const row = page.getByRole("row", { name: /CI key/ });
  await expect(row).toContainText("active");
  await expect(row).toContainText("Never");
  await expectAccessible(page, "keys with a new secret");
  await expectNoSidewaysScroll(page, "keys");
  await screenshot(page, testInfo, "keys");

  const basic = `Basic ${Buffer.from(`${apiId}:${apiSecret}`).toString("base64")}`;
  expect((await m.call("/accounts/balance", { auth: basic })).body.data).toEqual({ balance: 1000, currency: "USD" });

  // Shown once: after a reload the secret is nowhere on the page, and the key shows its last use.
  await page.reload();
  expect(await page.content()).not.toContain(apiSecret);
  await expect(row).not.toContainText("Never");

  await row.getByRole("button", { name: "Revoke CI key" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke “CI key”?" });
  await expect(dialog).toContainText(apiId);
  await expectAccessible(page, "revoke dialog");
  // Cancel backs out, and so does Escape.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  // By keyboard: Enter on the row's button opens it, Escape closes it and gives the focus back.
  const revoke = row.getByRole("button", { name: "Revoke CI key" });
  await revoke.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(revoke).toBeFocused();
  expect((await m.call("/accounts/balance", { auth: basic })).status).toBe(200);

  await row.getByRole("button", { name: "Revoke CI key" }).click();
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Revoked “CI key”" })).toBeVisible();
  await expect(row).toContainText("revoked");
  await expect(row.getByRole("button")).toHaveCount(0);
  const refused = await m.call("/accounts/balance", { auth: basic });
  expect(refused.status).toBe(401);
  // The merchant's other keys go on working.
  expect((await m.call("/accounts/balance")).status).toBe(200);
});

test("revoking the key a session signed in with ends that session, in this browser and in another", { tag: "@logic" }, async ({ page, browser, baseURL }) => {
  const m = await newMerchant(baseURL!, 0);
  await signIn(page, { id: m.api_id, secret: m.api_secret });
  await page.goto("/dashboard/keys");

  // A personal token made here signs in a second browser.
  await page.getByLabel("Name").fill("Laptop");
  await page.getByRole("radio", { name: /Personal token/ }).check();
  await page.getByRole("button", { name: "Create key" }).click();
  const token = (await page
    .getByRole("region", { name: /created/ })
    .getByLabel("Personal token", { exact: true })
    .textContent())!;
  expect(token).toMatch(/^pt_[\w-]+\.[\w-]+$/);
  await page.getByRole("button", { name: "I have saved it" }).click();
  await expect(page.getByRole("region", { name: /created/ })).toHaveCount(0);

  const other = await browser.newContext();
  try {
    const otherPage = await other.newPage();
    await signIn(otherPage, { token });

    await page
      .getByRole("row", { name: /Laptop/ })
      .getByRole("button", { name: "Revoke Laptop" })
      .click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
    await expect(page.getByRole("row", { name: /Laptop/ })).toContainText("revoked");

    await otherPage.reload();
    await expect(otherPage).toHaveURL(/\/dashboard\/sign-in$/);
    await fillSignIn(otherPage, { token });
    await expect(signInError(otherPage)).toHaveText("Those credentials are not valid.");
  } finally {
    await other.close();
  }

  // Revoking the key this browser signed in with signs it out at once.
  const own = page.getByRole("row", { name: /Default business key/ });
  await own.getByRole("button", { name: "Revoke Default business key" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("revoking it also signs you out");
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await expect(page).toHaveURL(/\/dashboard\/sign-in\?ended=key-revoked$/);
  await expect(page.getByText("You revoked the key you were signed in with.")).toBeVisible();
  expect((await m.call("/accounts/balance")).status).toBe(401);
});

test("a server action posted from another site, or without an Origin, changes nothing", { tag: "@logic" }, async ({ page, context, baseURL }) => {
  const m = await newMerchant(baseURL!, 0);
  await signIn(page, { id: m.api_id, secret: m.api_secret });
  // The sign-out form works without JavaScript, so the page's HTML names its action: replay it as a forged request
  // would, with the browser's cookie (context.request shares the browser's cookies).
  const html = await (await context.request.get(`${baseURL}/dashboard`)).text();
  const actionField = /name="(\$ACTION_ID_[0-9a-f]+)"/.exec(html)?.[1];
  expect(actionField).toBeTruthy();
  const post = (headers: Record<string, string>) =>
    context.request.post(`${baseURL}/dashboard`, { headers, multipart: { [actionField!]: "" }, maxRedirects: 0, failOnStatusCode: false });

  for (const headers of [{ Origin: "https://evil.example" }, {}] as Record<string, string>[]) {
    const res = await post(headers);
    expect(res.status(), JSON.stringify(headers)).toBeGreaterThanOrEqual(400);
    expect(await sessionCookie(context), JSON.stringify(headers)).toMatchObject({ value: expect.stringMatching(/^ey/) });
  }
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  // The same request from the shop's own origin signs out.
  const ok = await post({ Origin: new URL(baseURL!).origin });
  expect(ok.status()).toBeLessThan(400);
  expect(await sessionCookie(context)).toBeUndefined();
});
