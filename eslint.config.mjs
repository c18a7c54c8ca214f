import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// lib/ is the platform (lib/platform: settings, logs, errors, ids, networks, the process's loops, storage, events,
// metrics, rate limits, the HTTP basics) and the shop's features on top of it, each in its own folder. Both are
// ordered in layers, lowest first: a folder imports only the folders before it in its list, so the imports have no
// cycle and the order reads from the names. A lower layer never imports the layers that react to it or serve it: it
// emits a domain event (lib/platform/events.ts) that the upper layers listen to (lib/wiring.ts), or is passed what it
// runs by whoever starts it. Test helpers, fixtures and stand-ins live in test/, which no production file may import. See ARCHITECTURE.md.
const PLATFORM = [["config", "log", "errors", "ids", "money", "networks"], ["runtime", "db"], ["events", "metrics", "ratelimit"], ["http"]];
const FEATURES = [
  // What the domain stands on: wallet identities, the catalog (with its stock of codes), the shop's gift cards, the
  // local chains.
  ["identity", "catalog", "gift-cards", "devnet"],
  ["payments"],
  // An order's delivery, a merchant's account (its keys, balance and top-ups), the webhook outbox.
  ["fulfilment"],
  ["merchants"],
  ["webhooks"],
  // What both APIs share: the route wrappers, envelopes, error codes, schemas and limits of /x402 and /api/v2, the
  // admin API's wrapper.
  ["api/x402"],
  ["api/merchant"],
  ["api/admin"],
  // The merchant API's routes of features that sit below it: a feature's adapters in its merchant-api/ sub-folder.
  ["gift-cards/merchant-api", "webhooks/merchant-api"],
  // An invoice from creation to its final webhook, on both APIs, with its payment and the dashboard's invoice pages.
  ["checkout"],
  // The dashboard's read models and its routes' helpers, then the agents' surface: the x402 route table (with product
  // search and detail) and the MCP server that calls it.
  ["dashboard"],
  ["agents"],
  // The upstream supplier: a client of another shop's merchant API v2 (typed by lib/api/merchant's schemas), its
  // catalog sync and its purchases, whose provider lib/server passes to lib/fulfilment's worker and round.
  ["supply"],
  ["openapi", "server"],
  ["wiring"],
];
/** For each folder of a ladder, the folders it may not import: those above it and those after it in its own layer. */
const ladder = (layers) =>
  layers.flatMap((layer, i) => {
    const above = layers.slice(i + 1).flat();
    return layer.map((folder, j) => ({ folder, forbidden: [...above, ...layer.slice(j + 1)] }));
  });
// In lib/ and test/ an import names its folder: "./name" beside the file, "@/lib/..." or "@/test/..." elsewhere, so that
// the rules below see every import that leaves a folder.
const PARENT = { regex: "^\\.\\./", message: 'Import from outside the folder with "@/lib/..." or "@/test/...", not "../".' };
const restrict = (files, group, message, ignores = [], more = []) => ({
  files,
  ignores,
  rules: { "no-restricted-imports": ["error", { patterns: [{ group, message }, ...more, PARENT] }] },
});
// Each feature's public face is its index.ts: another feature imports `@/lib/catalog`, never a file inside it. (Its own
// files import one another directly; tests may import any file they test.)
const throughIndex = (folder) =>
  FEATURES.flat()
    .filter((f) => f !== "wiring" && f !== folder && !folder.startsWith(`${f}/`))
    .map((f) => ({ group: [`@/lib/${f}/*`], message: `Import lib/${f} through its index.ts ("@/lib/${f}"), not a file inside it.` }));
const TESTS = ["**/*.test.ts", "**/*.test.tsx"];
// Test support is for tests: no production file imports it.
const TEST_SUPPORT = ["@/test", "@/test/*", "**/test/*"];
const TEST_SUPPORT_MESSAGE = "test/ holds test helpers, fixtures and stand-ins: production code does not import it.";
const layerRules = [
  ...ladder(PLATFORM).map(({ folder, forbidden }) =>
    restrict(
      [`lib/platform/${folder}/**/*.{ts,tsx}`, `lib/platform/${folder}.ts`],
      [...forbidden.flatMap((f) => [`@/lib/platform/${f}`, `@/lib/platform/${f}/*`]), "@/lib/*", "!@/lib/platform", ...TEST_SUPPORT],
      `lib/platform/${folder} imports only the platform's layers below it and no feature, nor test/ (eslint.config.mjs, ARCHITECTURE.md).`,
      TESTS,
    ),
  ),
  ...ladder(FEATURES).map(({ folder, forbidden }) =>
    restrict(
      [`lib/${folder}/**/*.{ts,tsx}`, `lib/${folder}.ts`],
      [...forbidden.flatMap((f) => [`@/lib/${f}`, `@/lib/${f}/*`]), ...TEST_SUPPORT],
      `lib/${folder} imports only the platform and the features below it, nor test/ (eslint.config.mjs, ARCHITECTURE.md): emit a domain event (lib/platform/events.ts) or be passed the work by whoever starts it instead.`,
      // A sub-folder with its own place on the ladder (a feature's merchant-api/) has its own rule.
      [
        ...TESTS,
        ...FEATURES.flat()
          .filter((f) => f.startsWith(`${folder}/`))
          .map((f) => `lib/${f}/**`),
      ],
      throughIndex(folder),
    ),
  ),
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "scripts/**/*.ts", "*.ts"],
    ignores: [...TESTS, "vitest.*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: TEST_SUPPORT, message: TEST_SUPPORT_MESSAGE }] }] },
  },
  // A module loaded when first needed (`await import(...)`) is another feature's index too; within a feature, "./file".
  {
    files: ["lib/**/*.{ts,tsx}"],
    ignores: TESTS,
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          // A path below lib/ with more than a feature's name (which may be two parts: api/x402, gift-cards/merchant-api).
          selector: `ImportExpression[source.value=/^@\\/lib\\/(?!platform\\/)(?!(?:${FEATURES.flat()
            .map((f) => f.replace("/", "\\/"))
            .join("|")})$)[^/]+\\/./]`,
          message: 'Load another feature through its index.ts (await import("@/lib/catalog")), not a file inside it.',
        },
      ],
    },
  },
  // Tests in lib/ and test support may import what they test from anywhere, by its alias.
  { files: [...TESTS.map((t) => `lib/${t}`), "test/**/*.ts"], rules: { "no-restricted-imports": ["error", { patterns: [PARENT] }] } },
];

const config = [
  ...nextVitals,
  ...nextTs,
  ...layerRules,
  {
    ignores: [".next/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
];

export default config;
