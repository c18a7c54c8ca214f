import { expect, test } from "@playwright/test";
import { E2E_ADMIN_TOKEN } from "../server-env";
import { merchantCredentials, runFuzz } from "./run";

// Thousands of requests: one test, with the time they take on a busy CI machine.
test.setTimeout(300_000);

test("no route answers a malformed request with a 5xx, and the shop still serves after them all", async ({ baseURL }) => {
  const creds = await merchantCredentials(baseURL!, E2E_ADMIN_TOKEN);
  const { sent, failures, statuses } = await runFuzz(baseURL!, creds, { extra: 150, concurrency: 4 });
  const report = failures.slice(0, 20).map((f) => `${f.case.method} ${f.case.path.slice(0, 120)} [${f.case.label}] -> ${f.status} ${f.body.slice(0, 120)}`);
  expect(report, `${failures.length} of ${sent} requests answered 5xx or not at all`).toEqual([]);
  // The cases reached the handlers: refusals of each kind, not one blanket answer.
  expect(sent).toBeGreaterThan(3500);
  for (const status of ["400", "401", "404", "413"]) expect(statuses[status] ?? 0, `answers ${status}`).toBeGreaterThan(0);

  const home = await fetch(new URL("/", baseURL));
  expect(home.status).toBe(200);
  const ready = await fetch(new URL("/api/health?ready=1", baseURL));
  expect(ready.status, await ready.text()).toBe(200);
});
