import { Validator } from "@seriousme/openapi-schema-validator";
import { expectAccessible, expectNoSidewaysScroll } from "./a11y";
import { expect, test } from "./fixtures";

test("the merchant API's OpenAPI document is served as JSON and drawn on the docs page", async ({ page, request, baseURL }) => {
  const res = await request.get("/api/v2/openapi.json");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/json");
  const doc = (await res.json()) as { openapi: string; servers: { url: string }[]; paths: Record<string, unknown> };
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.servers).toEqual([{ url: `${baseURL}/api/v2` }]);
  expect((await new Validator().validate(doc)).valid).toBe(true);

  await page.goto("/");
  await page.getByRole("link", { name: "API documentation" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API documentation");
  await page.getByRole("link", { name: "Merchant API", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("x402 Storefront merchant API");

  // Every documented path is in the contents and has its section.
  const nav = page.getByRole("navigation", { name: "Operations" });
  for (const path of Object.keys(doc.paths)) await expect(nav.getByText(path, { exact: true }).first()).toBeVisible();
  await nav.getByRole("link", { name: "POST /invoices", exact: true }).click();
  const create = page.locator("section#createInvoice");
  await expect(create).toBeInViewport();
  await expect(create.getByText("Idempotency-Key", { exact: true })).toBeVisible();
  await expect(create.getByText("payment_method", { exact: true })).toBeVisible();
  // The 402 answer names its code; its body is the shared Error schema, drawn once below.
  await create.getByText("402", { exact: true }).click();
  await expect(create.getByText("balance_too_low")).toBeVisible();
  await create.getByRole("link", { name: "Error" }).click();
  await expect(page.locator("#schema-Error")).toBeInViewport();

  await expectAccessible(page, "merchant API docs");
  await expectNoSidewaysScroll(page, "merchant API docs");
  await page.screenshot({ path: test.info().outputPath("docs-merchant-api.png") });
});

test("the x402 API's OpenAPI document is served as JSON and drawn with each route's fee", async ({ page, request }) => {
  const res = await request.get("/x402/openapi.json");
  expect(res.status()).toBe(200);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { operationId: string; "x-x402-fee"?: unknown }>> };
  expect((await new Validator().validate(doc)).valid).toBe(true);

  await page.goto("/docs");
  await page.getByRole("link", { name: "x402 API", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("x402");
  const search = page.locator(`section#${doc.paths["/x402/gift-cards/search"]!.get!.operationId}`);
  await expect(search).toContainText("/x402/gift-cards/search");
  await expect(search).toContainText("Fee: 0.002 USDC");
  await expectAccessible(page, "x402 API docs");
  await expectNoSidewaysScroll(page, "x402 API docs");
});
