import { BROWSE_JS_BUDGET_KB, BROWSE_PAGES, measurePageJs } from "./js-budget";
import { expect, test } from "./fixtures";

for (const path of BROWSE_PAGES) {
  test(`${path} stays within the JavaScript budget`, async ({ page }) => {
    const { gzipKb } = await measurePageJs(page, path);
    expect(gzipKb).toBeGreaterThan(10); // measured something
    expect(gzipKb).toBeLessThanOrEqual(BROWSE_JS_BUDGET_KB);
  });
}
