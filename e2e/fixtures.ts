import { test as base, expect } from "@playwright/test";

/** Every test fails on a console error or an uncaught page error, but for the ones it says it expects. */
export const test = base.extend<{ expectedConsoleErrors: RegExp[]; consoleErrors: string[] }>({
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
});

export { expect };
