import { test as base, expect, type Page, type Request } from "@playwright/test";

/** A request of the page to its shop that took longer than this is named when the test fails. */
const SLOW_REQUEST_MS = 2000;

/**
 * Every test fails on a console error or an uncaught page error, but for the ones it says it expects. A test that
 * fails has two short attachments that the CI log prints beside its error: what the page showed (its address, alerts
 * and status lines), and its requests to the shop that failed, were slow or were still unanswered.
 */
export const test = base.extend<{ expectedConsoleErrors: RegExp[]; consoleErrors: string[]; failureContext: void }>({
  expectedConsoleErrors: [[], { option: true }],
  consoleErrors: [
    async ({ page, expectedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() === "error") errors.push(`${msg.text()} (${msg.location().url})`);
      });
      page.on("pageerror", (err) => errors.push(err.message));
      await use(errors);
      expect(
        errors.filter((e) => !expectedConsoleErrors.some((re) => re.test(e))),
        "console errors",
      ).toEqual([]);
    },
    { auto: true },
  ],
  failureContext: [
    async ({ page, baseURL }, use, testInfo) => {
      const requests = watchRequests(page, baseURL);
      await use();
      if (testInfo.status === testInfo.expectedStatus || page.isClosed()) return;
      await testInfo.attach("page", { body: await pageMessages(page).catch((err: Error) => `(not read: ${err.message})`), contentType: "text/plain" });
      await testInfo.attach("requests", { body: requests.summary() || "none failed, slow or unanswered", contentType: "text/plain" });
    },
    { auto: true },
  ],
});

/** The page's address and the words of its alerts and status lines (the outcome of the last action). */
async function pageMessages(page: Page): Promise<string> {
  const texts = async (role: "alert" | "status") => (await page.getByRole(role).allTextContents()).map((t) => t.trim()).filter(Boolean);
  const [alerts, statuses] = await Promise.all([texts("alert"), texts("status")]);
  return [`at ${new URL(page.url()).pathname}`, `alerts: ${JSON.stringify(alerts)}`, `status: ${JSON.stringify(statuses)}`].join("\n");
}

/** The page's requests to its shop: those that failed (no answer, or 5xx), took long, or have no answer yet. */
function watchRequests(page: Page, baseURL: string | undefined) {
  const origin = baseURL ? new URL(baseURL).origin : undefined;
  const started = new Map<Request, number>();
  const notable: string[] = [];
  const name = (r: Request) => `${r.method()} ${new URL(r.url()).pathname}`;
  const settle = (r: Request, outcome: string | number) => {
    const at = started.get(r);
    if (at === undefined) return;
    started.delete(r);
    const ms = Date.now() - at;
    if (typeof outcome === "string" || outcome >= 500 || ms >= SLOW_REQUEST_MS) notable.push(`${name(r)} ${outcome} after ${ms} ms`);
  };
  page.on("request", (r) => {
    if (origin && r.url().startsWith(origin) && r.resourceType() === "fetch") started.set(r, Date.now());
  });
  page.on("response", (res) => settle(res.request(), res.status()));
  page.on("requestfailed", (r) => {
    const error = r.failure()?.errorText ?? "failed";
    // A prefetch or a query that the page itself cancelled (it moved on) is not a failure.
    if (error === "net::ERR_ABORTED") started.delete(r);
    else settle(r, error);
  });
  return {
    summary: () => [...notable.slice(-5), ...[...started].map(([r, at]) => `${name(r)} unanswered for ${Date.now() - at} ms`)].join("\n"),
  };
}

export { expect };
