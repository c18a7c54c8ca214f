import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium";
import { E2E_ADMIN_TOKEN, E2E_CRON_SECRET, MAINNET_STAND_IN } from "./server-env";
import { SERVER_A, SHARED_DEVNET_PORT, SHARED_SESSION_SECRET } from "./two-servers/servers";

const PORT = Number(process.env.E2E_PORT ?? 3107);
// With TEST_DATABASE_URL (CI), the browse flow's searches run once more against a shop on a fresh PostgreSQL database.
const postgres = Boolean(process.env.TEST_DATABASE_URL);
// E2E_BASE_URL points the tests at a shop that is already running (for example `npm run dev`) instead of starting one.
const external = process.env.E2E_BASE_URL;

// At the end, SIGTERM rather than Playwright's default SIGKILL, so that e2e/server.mjs and e2e/devnet.mjs remove the
// data folders, the standalone server's copy and the PostgreSQL databases they made.
const GRACEFUL_SHUTDOWN = { signal: "SIGTERM" as const, timeout: 30_000 };

/** A web server entry: started from the repository's root, its output shown, stopped with SIGTERM. */
const webServer = (command: string, env: Record<string, string> = {}) => ({
  command,
  env,
  cwd: "..",
  reuseExistingServer: false,
  stdout: "pipe" as const,
  stderr: "pipe" as const,
  gracefulShutdown: GRACEFUL_SHUTDOWN,
});

/**
 * A process of the run (a shop or the shared devnet) and the URL that answers once it is up. That URL is not given to
 * Playwright, which would wait for each web server before starting the next: see `startedTogether`.
 */
type RunProcess = { webServer: ReturnType<typeof webServer>; ready: string };

// Every e2e shop: a known admin token (merchant API tests create merchants) and quick webhook retries.
const server = (port: number, mode: string, env: Record<string, string> = {}): RunProcess => ({
  webServer: webServer(`node e2e/server.mjs ${port} ${mode}`, {
    ADMIN_TOKEN: E2E_ADMIN_TOKEN,
    CRON_SECRET: E2E_CRON_SECRET,
    WEBHOOK_RETRY_BASE_SECONDS: "1",
    ...env,
  }),
  ready: `http://127.0.0.1:${port}/`,
});

/** The processes, all started at once, and last the one that waits until each answers (e2e/shops-ready.mjs). */
const startedTogether = (processes: RunProcess[]) => [
  ...processes.map((p) => p.webServer),
  {
    ...webServer(`node e2e/shops-ready.mjs ${processes.map((p) => p.ready).join(" ")}`),
    wait: { stdout: /every e2e shop answers/ },
    timeout: 180_000,
  },
];

// The dependency of the projects that wait for the x402 API tests only to balance the phases (see `projects`); none
// against a running shop (E2E_BASE_URL), where `--project resale` runs that project alone.
const secondPhase = external ? [] : ["x402-api"];

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  outputDir: "../test-results",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // `npm run test:timings` asks for the JSON report too (scripts/test-timings.mjs), written where the variable says.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  // Checkouts wait for blocks (a second each on the devnet, as on Base), and the CI machine runs six shops at once.
  timeout: 60_000,
  // A page or an assertion may wait on a shop that shares two cores with five others and the browsers.
  expect: { timeout: 10_000 },
  use: {
    baseURL: external ?? `http://127.0.0.1:${PORT}`,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: "off",
  },
  // Playwright runs the projects in phases: a project whose dependencies have not all finished waits for the next
  // phase, which starts when every test of the current one is done. Two phases of about equal work, then, each with
  // its long tests first, so that neither worker waits idle at a phase's end: the first holds the x402 API tests (the
  // dependency) and what runs beside them; the second every project that comes after them, because it pays the same
  // payTo (merchant-api, checkout) or only to balance the phases (the others say so).
  projects: [
    // The wallet-paid API with the official x402 client packages: no browser. One file at a time: the tests
    // check the shop's payTo balance to the atomic unit, and other files pay the same payTo. First: one worker runs
    // them in turn, the first phase's longest stretch, while the other takes the rest of the phase.
    { name: "x402-api", testMatch: "x402/**/*.spec.ts", workers: 1 },
    // Invoices that expire: a shop of its own whose invoices live one minute. Early: it mostly waits.
    ...(!external
      ? [
          {
            name: "checkout-expiry",
            testMatch: "checkout-expiry/**/*.spec.ts",
            use: { browserName: "chromium" as const, viewport: { width: 1280, height: 800 }, baseURL: `http://127.0.0.1:${PORT + 2}` },
          },
        ]
      : []),
    {
      name: "desktop",
      testIgnore: [
        "x402/**",
        "checkout/**",
        "checkout-expiry/**",
        "merchant-api/**",
        "two-servers/**",
        "mainnet/**",
        "operations/**",
        "resale/**",
        "restart/**",
        "phone/**",
      ],
      use: { browserName: "chromium", viewport: { width: 1280, height: 800 } },
    },
    // What an operator relies on, over real HTTP: health, the cron round, start-up refusals, and a fuzz of every route
    // with malformed input (no 5xx). No browser; it never pays, so it may run beside the API tests.
    { name: "operations", testMatch: "operations/**/*.spec.ts", testIgnore: external ? [] : ["operations/fuzz.spec.ts"] },
    // The fuzz on the shop of the expiring invoices, which no other API test calls: its thousands of requests without
    // a valid credential use up the merchant API's budget of loopback clients (60 a minute, rolling) for that shop.
    ...(!external ? [{ name: "fuzz", testMatch: "operations/fuzz.spec.ts", use: { baseURL: `http://127.0.0.1:${PORT + 2}` } }] : []),
    // A shop in mainnet mode with stand-in payment settings: no demo or test product anywhere.
    ...(!external
      ? [{ name: "mainnet", testMatch: "mainnet/**/*.spec.ts", use: { browserName: "chromium" as const, baseURL: `http://127.0.0.1:${PORT + 6}` } }]
      : []),

    // The second phase.
    // A shop reselling another (UPSTREAM_API_URL), both started by the spec from the production build on a devnet of
    // their own, the reseller killed mid-purchase and restarted. Its shops, chains and payTo are its own: it comes
    // after the API tests only to run first in the second phase (one worker's longest stretch), and it runs with
    // E2E_BASE_URL too (it never uses that shop).
    {
      name: "resale",
      testMatch: "resale/**/*.spec.ts",
      dependencies: secondPhase,
      use: { browserName: "chromium", viewport: { width: 1280, height: 800 } },
    },
    // A shop stopped (SIGTERM, SIGKILL) in the middle of its refunds and started again on the same data, and a shop
    // whose PostgreSQL restarts under load, on a devnet of their own at 0.5 s blocks: no browser. In the second phase
    // for the phases' balance.
    { name: "restart", testMatch: "restart/**/*.spec.ts", dependencies: secondPhase },
    // The merchant API over real HTTP, as its existing clients use it: no browser.
    // It pays the same payTo as the x402 API tests, which check its balance exactly: it runs after them.
    { name: "merchant-api", testMatch: "merchant-api/**/*.spec.ts", dependencies: ["x402-api"] },
    // Browser checkouts pay the same payTo wallets as the API tests, so they run after them.
    {
      name: "checkout",
      testMatch: "checkout/**/*.spec.ts",
      dependencies: ["x402-api"],
      use: { browserName: "chromium", viewport: { width: 1280, height: 800 } },
    },
    // Two shops on one PostgreSQL database and one devnet (npm run devnet, DEVNET_URL), as several servers of one
    // deployment: one payment offered to both, and many payers at once. It pays its own devnet's payTo (after the API
    // tests only for the phases' balance).
    ...(postgres && !external
      ? [{ name: "two-servers", testMatch: "two-servers/**/*.spec.ts", workers: 1, dependencies: secondPhase, use: { baseURL: SERVER_A } }]
      : []),
    // The pages again at a phone's size; not the JavaScript budgets nor the API documents' pages, which do not depend
    // on the screen, nor the tests of logic alone (@logic). The dashboard's longer flows (orders, webhooks, gift cards)
    // run on desktop; on the phone, phone/dashboard-pages.spec.ts checks each of their pages with rows in its tables.
    // After the API tests only for the phases' balance.
    {
      name: "phone",
      grepInvert: /@logic/,
      testIgnore: [
        "x402/**",
        "checkout/**",
        "checkout-expiry/**",
        "merchant-api/**",
        "two-servers/**",
        "mainnet/**",
        "operations/**",
        "resale/**",
        "restart/**",
        "budget.spec.ts",
        "docs.spec.ts",
        "dashboard/orders.spec.ts",
        "dashboard/webhooks.spec.ts",
        "dashboard/gift-cards.spec.ts",
      ],
      dependencies: secondPhase,
      use: { browserName: "chromium", viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
    },
    ...(postgres && !external
      ? [
          {
            name: "desktop-postgres",
            testMatch: "browse.spec.ts",
            // The searches, which PostgreSQL's full-text and trigram indexes answer; the other pages read the catalog
            // from memory, the same on either database. After the API tests only for the phases' balance.
            grep: /search|filters|typos/,
            dependencies: secondPhase,
            use: { browserName: "chromium" as const, viewport: { width: 1280, height: 800 }, baseURL: `http://127.0.0.1:${PORT + 1}` },
          },
        ]
      : []),
  ],
  // The production build on a fresh, empty database: the demo catalog is seeded at start, as for a new user.
  webServer: external
    ? []
    : startedTogether([
        server(PORT, "pglite"),
        server(PORT + 2, "pglite", { INVOICE_TTL_MINUTES: "1" }),
        // The mainnet shop is the standalone server by itself (as in the Docker image).
        server(PORT + 6, "pglite", { ...MAINNET_STAND_IN(PORT + 6), E2E_STANDALONE: "1" }),
        ...(postgres
          ? [
              // The devnet that the PostgreSQL shops share (a shop waits for its DEVNET_URL).
              { webServer: webServer(`node e2e/devnet.mjs ${SHARED_DEVNET_PORT}`), ready: `http://127.0.0.1:${SHARED_DEVNET_PORT}/` },
              // The browse flow's shop pays nothing: it uses the shared devnet rather than chains of its own.
              server(PORT + 1, "postgres", { DEVNET_URL: `http://127.0.0.1:${SHARED_DEVNET_PORT}` }),
              ...[PORT + 3, PORT + 4].map((port) =>
                server(port, "postgres-shared", {
                  DEVNET_URL: `http://127.0.0.1:${SHARED_DEVNET_PORT}`,
                  E2E_SHARED_DATABASE: `storefront_e2e_shared_${PORT}`,
                  SESSION_SECRET: SHARED_SESSION_SECRET,
                }),
              ),
            ]
          : []),
      ]),
});
