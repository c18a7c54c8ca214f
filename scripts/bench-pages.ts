// Prints the compressed JavaScript each browse page loads, against the budget.
// Needs a production build: `npm run build && npm run bench:pages`.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/chromium";
import { BROWSE_JS_BUDGET_KB, BROWSE_PAGES, measurePageJs } from "../e2e/js-budget";

async function main() {
  if (!fs.existsSync(".next/BUILD_ID")) throw new Error("No production build: run `npm run build` first.");
  const port = String(3300 + Math.floor(Math.random() * 500));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-"));
  const server = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", port, "-H", "127.0.0.1"], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: "ignore",
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(base)).ok) break;
      } catch {}
      if (i > 300) throw new Error("server did not start");
      await new Promise((r) => setTimeout(r, 200));
    }
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    console.log(`page                          files   raw KB   gzip KB   budget ${BROWSE_JS_BUDGET_KB} KB`);
    let over = false;
    for (const url of BROWSE_PAGES) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const m = await measurePageJs(page, base + url);
      over ||= m.gzipKb > BROWSE_JS_BUDGET_KB;
      console.log(
        `${url.padEnd(28)} ${String(m.files).padStart(6)} ${m.rawKb.toFixed(1).padStart(8)} ${m.gzipKb.toFixed(1).padStart(9)}   ${m.gzipKb > BROWSE_JS_BUDGET_KB ? "OVER" : "ok"}`,
      );
      await context.close();
    }
    await browser.close();
    process.exitCode = over ? 1 : 0;
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
