import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The domain's lower layers never import the layers that react to them or serve them: a state change is announced as
// a domain event (lib/events.ts) and the upper layers listen (lib/wiring.ts). Tests, fixtures and test helpers may
// reach up.
const UPPER_LAYERS = ["@/lib/merchant-invoices", "@/lib/merchants", "@/lib/webhooks", "@/lib/http", "@/lib/dashboard", "@/lib/server", "@/lib/wiring"];
const layers = {
  files: ["lib/{config,db,catalog,identity,invoices,fulfilment,payments,devnet}/**/*.ts", "lib/{ids,events,errors,log}.ts"],
  ignores: ["**/*.test.ts", "**/*.fixture.ts", "**/testing.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      // The process's poll loops and its shutdown hooks are infrastructure every layer runs on.
      {
        patterns: [
          {
            group: [...UPPER_LAYERS.flatMap((p) => (p === "@/lib/server" ? [`${p}/*`] : [p, `${p}/*`])), "!@/lib/server/poll-loop", "!@/lib/server/shutdown"],
            message: "A lower layer does not import an upper one: emit a domain event (lib/events.ts) instead.",
          },
        ],
      },
    ],
  },
};

const config = [
  ...nextVitals,
  ...nextTs,
  layers,
  {
    ignores: [".next/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"],
  },
];

export default config;
