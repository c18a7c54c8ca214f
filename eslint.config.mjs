import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The folders of lib/ in layers, lowest first: a folder imports only folders before it in this list, so the imports
// between folders have no cycle and the order reads from the names. A lower layer never imports the layers that react
// to it or serve it: it emits a domain event (lib/events.ts) that the upper layers listen to (lib/wiring.ts), or is
// handed what it runs (the database's seeding, the round after a response). Tests, fixtures and test helpers may
// reach up. See ARCHITECTURE.md.
const LAYERS = [
  // Foundations: settings, logs, errors, ids, the networks' definitions, the process's loops and shutdown, storage.
  ["config", "log", "errors", "ids", "networks", "runtime", "db", "events", "metrics"],
  // What the domain stands on: the catalog, wallet identities, the shop's gift cards, rate limits, stock, the local chains.
  ["identity", "catalog", "gift-cards", "ratelimit", "inventory", "devnet"],
  ["payments"],
  // The domain: an order's delivery, an invoice's life, a merchant's account, its balance top-ups.
  ["fulfilment"],
  ["invoices"],
  ["merchants"],
  ["topups", "webhooks"],
  // Read models for the dashboard, then the HTTP adapters (by caller), their API documents, the server, the wiring.
  ["dashboard"],
  ["http"],
  // The upstream supplier: a client of another shop's merchant API v2 (typed by lib/http/merchant's schemas), its
  // catalog sync and its purchases, which lib/wiring.ts hands to lib/fulfilment.
  ["supply"],
  ["openapi", "server"],
  ["wiring"],
];
const layerRules = LAYERS.map((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  // Folders of one layer do not import each other either, except along the layer's own order.
  const sideways = layer.slice(1);
  return layer.map((folder, j) => ({ folder, forbidden: [...above, ...sideways.slice(j)] }));
})
  .flat()
  .filter(({ forbidden }) => forbidden.length > 0)
  .map(({ folder, forbidden }) => ({
    files: [`lib/${folder}/**/*.{ts,tsx}`, `lib/${folder}.ts`],
    ignores: ["**/*.test.ts", "**/*.fixture.ts", "**/testing.ts", "lib/log-testing.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: forbidden.flatMap((f) => [`@/lib/${f}`, `@/lib/${f}/*`]),
              message: `lib/${folder} imports only the layers below it (eslint.config.mjs, ARCHITECTURE.md): emit a domain event (lib/events.ts) or be handed the work instead.`,
            },
          ],
        },
      ],
    },
  }));

const config = [
  ...nextVitals,
  ...nextTs,
  ...layerRules,
  {
    ignores: [".next/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
];

export default config;
