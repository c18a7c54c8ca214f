import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { expectAccessible, expectNoSidewaysScroll } from "../a11y";
import { expect, test } from "../fixtures";
import { newMerchant } from "../merchant-api/merchants";
import { screenshot, signIn } from "./session";

// The dashboard's Webhooks section, on desktop and phone: a failing delivery to a loopback receiver shows its
// attempts and is redelivered; its disabled endpoint is re-enabled; a test event is sent; the signing secret is
// revealed and rotated.

type Received = { headers: http.IncomingHttpHeaders; body: string };

/** A receiver on 127.0.0.1 recording every request; `answer` says what it answers to the n-th (0-based). */
async function startReceiver(answer: (index: number) => { status: number; body?: string }) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const a = answer(received.length);
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(a.status, { "content-type": "text/plain" }).end(a.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const UTC_TIME = /\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d:\d\d UTC/g;

async function openWebhooks(page: Page) {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
}

test("a failing webhook shows its attempts, is redelivered to a receiver on loopback, and its disabled endpoint re-enabled", async ({
  page,
  baseURL,
}, testInfo) => {
  // 500, then 410 Gone: the worker gives the message up at once and disables the endpoint (no retry races the test).
  let healthy = false;
  const receiver = await startReceiver((i) =>
    healthy ? { status: 200, body: "thanks" } : i === 0 ? { status: 500, body: "receiver down: database unavailable" } : { status: 410, body: "gone for now" },
  );
  try {
    const m = await newMerchant(baseURL!, 100);
    const res = await m.call("/invoices", {
      body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true, webhook_url: receiver.url },
    });
    expect(res.status).toBe(200);
    await expect
      .poll(async () => ((await m.call("/webhooks/deliveries")).body.data as { status: string; attempts: number }[]).map((d) => [d.status, d.attempts]), {
        timeout: 20_000,
      })
      .toEqual([["failed", 2]]);
    const messageId = String(receiver.received[0]!.headers["webhook-id"]);

    await signIn(page, { id: m.api_id, secret: m.api_secret });
    await openWebhooks(page);
    const endpoints = page.getByRole("table", { name: "Endpoints" });
    await expect(endpoints.getByRole("row", { name: receiver.url })).toContainText("disabled");
    await expect(endpoints).toContainText("the endpoint answered 410 Gone");
    const log = page.getByRole("table", { name: "Webhook deliveries" });
    await expect(log.getByRole("row")).toHaveCount(2);
    const row = log.getByRole("row").nth(1);
    for (const text of ["invoice.complete", receiver.url, "failed", "#2", "HTTP 410", "gone for now"]) await expect(row).toContainText(text);
    // The event's time and the latest attempt's send time, each under its own header.
    await expect(log.getByRole("columnheader", { name: "Event time" })).toBeAttached();
    await expect(log.getByRole("columnheader", { name: "Last sent" })).toBeAttached();
    expect((await row.innerText()).match(UTC_TIME)).toHaveLength(2);
    await expectAccessible(page, "webhooks");
    await expectNoSidewaysScroll(page, "webhooks");
    await screenshot(page, testInfo, "webhooks");

    // The filters: only failed ones, then a status with none.
    await page.getByLabel("Status").selectOption("failed");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/status=failed/);
    await expect(log.getByRole("row")).toHaveCount(2);
    await page.getByLabel("Status").selectOption("delivered");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByRole("heading", { name: "No messages match" })).toBeVisible();
    await page.getByRole("link", { name: "See every message" }).click();
    await expect(log.getByRole("row")).toHaveCount(2);

    // The message: both attempts, the payload, and Redeliver.
    await log.getByRole("link", { name: /invoice\.complete/ }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/webhooks/${messageId}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("invoice.complete");
    const attempts = page.getByRole("table", { name: `Attempts of webhook message ${messageId}` });
    await expect(attempts.getByRole("row")).toHaveCount(3);
    await expect(attempts.getByRole("row").nth(1)).toContainText("HTTP 500");
    await expect(attempts.getByRole("row").nth(1)).toContainText("receiver down: database unavailable");
    await expect(attempts.getByRole("row").nth(2)).toContainText("HTTP 410");
    await expect(page.getByLabel("payload", { exact: true })).toContainText('"status": "complete"');
    await expectAccessible(page, "failing webhook");
    await expectNoSidewaysScroll(page, "failing webhook");
    await screenshot(page, testInfo, "webhook-failing");

    healthy = true;
    await page.getByRole("button", { name: "Redeliver" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Accepted: HTTP 200" })).toBeVisible();
    await expect(attempts.getByRole("row")).toHaveCount(4);
    await expect(attempts.getByRole("row").nth(3)).toContainText("#3");
    await expect(attempts.getByRole("row").nth(3)).toContainText("thanks");
    await expect(page.getByRole("region", { name: "Details" })).toContainText("delivered");
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([messageId, messageId, messageId]);
    expect(new Webhook(m.webhook_secret).verify(receiver.received[2]!.body, receiver.received[2]!.headers as Record<string, string>)).toMatchObject({
      status: "complete",
    });
    await expectAccessible(page, "redelivered webhook");
    await screenshot(page, testInfo, "webhook-redelivered");

    // Back on the log: delivered now; the endpoint is re-enabled by hand.
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(log.getByRole("row").nth(1)).toContainText("delivered");
    await endpoints.getByRole("button", { name: `Re-enable ${receiver.url}` }).click();
    await expect(endpoints.getByRole("status").filter({ hasText: "Re-enabled." })).toBeVisible();
    await expect(endpoints.getByRole("row", { name: receiver.url })).toContainText("active");
    await expect(endpoints.getByRole("button", { name: /Re-enable/ })).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});

test("a new merchant is shown how to get webhooks, sends a test event, and reveals and rotates the signing secret", async ({ page, baseURL }, testInfo) => {
  const receiver = await startReceiver(() => ({ status: 204 }));
  try {
    const m = await newMerchant(baseURL!, 0);
    await signIn(page, { token: m.api_token });
    await openWebhooks(page);
    await expect(page.getByRole("heading", { name: "No webhooks yet: set a webhook URL" })).toBeVisible();
    await expect(page.getByLabel("invoice with a webhook URL", { exact: true })).toContainText(`${baseURL}/api/v2/invoices`);
    // The secret is not in the page until asked for.
    expect(await page.content()).not.toContain(m.webhook_secret);
    await expectAccessible(page, "webhooks, empty");
    await expectNoSidewaysScroll(page, "webhooks, empty");
    await screenshot(page, testInfo, "webhooks-empty");

    // A URL the shop cannot send to is refused with a message.
    const url = page.getByLabel("Endpoint URL");
    await url.fill("not a url");
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The URL is not an absolute URL." })).toBeVisible();
    await expect(url).toHaveAttribute("aria-invalid", "true");
    await url.fill(receiver.url);
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Accepted: HTTP 204" })).toBeVisible();
    expect(receiver.received).toHaveLength(1);
    expect(new Webhook(m.webhook_secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers as Record<string, string>)).toMatchObject({
      type: "test",
    });
    // Logged with the others.
    const log = page.getByRole("table", { name: "Webhook deliveries" });
    await expect(log.getByRole("row")).toHaveCount(2);
    await expect(log).toContainText("test");
    await expect(log).toContainText("HTTP 204");
    await expect(url).toHaveValue(receiver.url);

    // Reveal, then rotate: a new secret, the old one still signing for a day.
    await page.getByRole("button", { name: "Reveal secret" }).click();
    const current = page.getByRole("status", { name: "Signing secret" });
    await expect(current).toHaveText(m.webhook_secret);
    await page.getByRole("button", { name: "Rotate secret…" }).click();
    const dialog = page.getByRole("dialog", { name: "Rotate the signing secret?" });
    await expect(dialog).toContainText("24 hours");
    await dialog.getByRole("button", { name: "Rotate secret" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("status").filter({ hasText: "New secret made." })).toContainText(
      /the previous secret keeps signing until \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC/,
    );
    await expect(current).toHaveText(/^whsec_/);
    const rotated = await current.innerText();
    expect(rotated).not.toBe(m.webhook_secret);
    await expect(page.getByRole("status", { name: "Previous secret" })).toHaveText(m.webhook_secret);
    await expect(page.getByText(/^Still signs until /)).toBeVisible();
    await expectAccessible(page, "webhooks, secret rotated");
    await expectNoSidewaysScroll(page, "webhooks, secret rotated");
    await screenshot(page, testInfo, "webhooks-secret");

    // Messages now carry both signatures.
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => receiver.received.length).toBe(2);
    const second = receiver.received[1]!;
    expect(String(second.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [rotated, m.webhook_secret])
      expect(new Webhook(secret).verify(second.body, second.headers as Record<string, string>)).toMatchObject({ type: "test" });

    // The page shows the second message too before the next click (a row added above moves the button).
    await expect(log.getByRole("row")).toHaveCount(3);

    // Hidden again, and gone from the page.
    await page.getByRole("button", { name: "Hide secret" }).click();
    await expect(page.getByRole("button", { name: "Reveal secret" })).toBeVisible();
    expect(await page.content()).not.toContain(rotated);
  } finally {
    await receiver.close();
  }
});

test.describe("not found", () => {
  test.use({ expectedConsoleErrors: [/status of 404 \(Not Found\)/] });

  test("another merchant's message is not found; a page link the log does not know starts from the newest", async ({ page, baseURL }) => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const other = await newMerchant(baseURL!, 100);
      const res = await other.call("/invoices", {
        body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true, webhook_url: receiver.url },
      });
      expect(res.status).toBe(200);
      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
      const theirs = String(receiver.received[0]!.headers["webhook-id"]);

      const m = await newMerchant(baseURL!, 100);
      await signIn(page, { token: m.api_token });
      expect((await page.goto(`/dashboard/webhooks/${theirs}`))?.status()).toBe(404);
      expect((await page.goto("/dashboard/webhooks/msg_01AAAAAAAAAAAAAAAAAAAAAAAA"))?.status()).toBe(404);
      await expect(page.getByText(theirs)).toHaveCount(0);

      await m.call("/invoices", {
        body: { products: [{ product_id: "test-gift-card-code", value: 10 }], payment_method: "balance", auto_pay: true, webhook_url: receiver.url },
      });
      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(2);
      await page.goto("/dashboard/webhooks?cursor=bm9uc2Vuc2U&status=lost");
      await expect(
        page.getByRole("status").filter({ hasText: "Ignored a value this log does not understand: status, page link. Showing the newest messages." }),
      ).toBeVisible();
      await expect(page.getByRole("table", { name: "Webhook deliveries" }).getByRole("row")).toHaveCount(2);
    } finally {
      await receiver.close();
    }
  });
});
