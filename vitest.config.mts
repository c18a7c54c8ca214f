import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// Tests that touch the database are named *.db.test.ts. They run with the domain's listeners wired (vitest.setup.ts) on
// an in-memory PGlite, and again on a real PostgreSQL server when TEST_DATABASE_URL names one (CI starts one; see
// .ci/run). The other tests run without the wiring, which would load most of the shop for each file.
const postgresUrl = process.env.TEST_DATABASE_URL;
// Database tests whose subject is not the database (an upstream shop over HTTP, the gift card guess limits, a chain or
// a node that misbehaves): on PGlite only, to keep CI within its time. Their SQL is the same as the PostgreSQL runs of
// the tests beside them.
const pgliteOnly = [
  "lib/supply/**",
  "lib/gift-cards/guesses.db.test.ts",
  "lib/fulfilment/refund-lagging-node.db.test.ts",
  "lib/payments/nonce-gap.db.test.ts",
  "lib/checkout/x402/solana-truth.db.test.ts",
  "lib/checkout/x402/chain-truth.db.test.ts",
];

// The files that spend most of their time waiting for the chains' blocks (a lag, an expiry, a depth, many payers at a
// block a second), the longest first. They start first, so that they wait while the other files and `npm test`'s check
// and build (scripts/test-phases.mjs) use the cores, rather than at the end with a core idle.
const waiting = [
  "lib/fulfilment/refund-lagging-node.db.test.ts",
  "lib/checkout/x402/x402-exchange.db.test.ts",
  "lib/checkout/x402/solana-truth.db.test.ts",
  "lib/checkout/x402/chain-truth.db.test.ts",
  "lib/checkout/address-payment.db.test.ts",
  "lib/checkout/address-watch-crash.db.test.ts",
];
class WaitingFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const i = waiting.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return i < 0 ? waiting.length : i;
    };
    // Array.prototype.sort is stable: the others keep Vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

// `npm run test:timings` asks for Vitest's JSON report too (scripts/test-timings.ts), written where this variable says.
const timingsReport = process.env.TEST_TIMINGS_VITEST_JSON;

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)) } },
  test: {
    environment: "node",
    ...(timingsReport ? { reporters: ["default", "json"], outputFile: { json: timingsReport } } : {}),
    // Each database test file opens its own in-memory PGlite; loading its WebAssembly takes a moment.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Five files at a time on two cores: the files that wait for blocks (`waiting`, five file runs with PostgreSQL) start
    // first, together, and take little CPU while they wait; the check and the build (scripts/test-phases.mjs) use the
    // cores meanwhile, and each worker whose waiting file ends takes the CPU-bound files. With three workers, all three
    // waited at once and the CPU was idle for over a minute (measured: Vitest 5 min 42 s with three, 4 min 20 s with
    // five, the same tests). VITEST_MAX_WORKERS sets another number, to measure.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 5),
    sequence: { sequencer: WaitingFirst },
    projects: [
      // Tests without a database: no wiring, no template.
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "test/**/*.test.ts"],
          exclude: ["**/*.db.test.ts"],
          env: { TEST_DB: "pglite" },
          // The files of a worker share its process and modules, loaded once: they keep no state of their own between
          // files.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "pglite",
          include: ["lib/**/*.db.test.ts", "components/**/*.db.test.ts"],
          env: { TEST_DB: "pglite" },
          setupFiles: ["./vitest.setup.ts"],
          // Each file's in-memory database starts from one migrated for the run.
          globalSetup: ["./vitest.global-setup.ts"],
          // The files of a worker share its process: the packages are loaded once (about four seconds of CPU a file
          // otherwise), and vitest.setup.ts starts each file from a new process's state.
          isolate: false,
        },
      },
      // The operator CLI, run as the operator runs it (a child process per command): slower on a busy machine.
      {
        extends: true,
        test: {
          name: "cli",
          include: ["scripts/**/*.test.ts"],
          env: { TEST_DB: "pglite" },
          setupFiles: ["./vitest.setup.ts"],
          // The data folders the commands open start from the run's migrated template (openTestDataDir).
          globalSetup: ["./vitest.global-setup.ts"],
          testTimeout: 120_000,
          isolate: false,
        },
      },
      ...(postgresUrl
        ? [
            {
              extends: true,
              test: {
                name: "postgres",
                include: ["lib/**/*.db.test.ts"],
                exclude: pgliteOnly,
                env: { TEST_DB: "postgres" },
                setupFiles: ["./vitest.setup.ts"],
                isolate: false,
              },
            },
          ]
        : []),
    ],
  },
});
