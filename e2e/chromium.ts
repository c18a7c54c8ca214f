import fs from "node:fs";

/**
 * Debian's Chromium (Playwright's own browser download is not available here): its headless shell when installed
 * (`apt-get install chromium-headless-shell`), which Playwright itself uses for headless runs and which takes about a
 * third less CPU a page than the full browser in headless mode, else the full browser. CHROMIUM_PATH names another.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ?? (fs.existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

// No sandbox: CI runs as root. The rest keeps Chromium from reaching for the network on its own.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];
