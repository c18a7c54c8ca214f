// Prints the compressed JavaScript each browse page loads, against the budget.
// Needs a production build: `npm run build && npm run bench:pages`.
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { BROWSE_JS_BUDGET_KB, BROWSE_PAGES, measurePageJs } from "../e2e/js-budget";
import { startShop } from "./shop-server";

async function main() {
  const shop = await startShop();
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    console.log(`page                          files   raw KB   gzip KB   budget ${BROWSE_JS_BUDGET_KB} KB`);
    let over = false;
    for (const url of BROWSE_PAGES) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const m = await measurePageJs(page, shop.baseURL + url);
      over ||= m.gzipKb > BROWSE_JS_BUDGET_KB;
      console.log(
        `${url.padEnd(28)} ${String(m.files).padStart(6)} ${m.rawKb.toFixed(1).padStart(8)} ${m.gzipKb.toFixed(1).padStart(9)}   ${m.gzipKb > BROWSE_JS_BUDGET_KB ? "OVER" : "ok"}`,
      );
      await context.close();
    }
    await browser.close();
    process.exitCode = over ? 1 : 0;
  } finally {
    await shop.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
