// What a Next.js proxy costs a route by its mere presence: the bare route beside the same route behind a proxy that
// passes every request on untouched, both built and started here, loaded in turns in one run. The shop's two APIs skip
// its proxy for their plain paths for this reason (proxy.ts; ARCHITECTURE.md, "Where a request's time goes").
//
//   npx tsx scripts/bench/proxy-cost.ts        (BENCH_SECONDS per load, default 10)
import { interleaved, throughputLine } from "./load";
import { startBareRoute } from "./processes";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function main() {
  const bare = await startBareRoute();
  const proxied = await startBareRoute({ emptyProxy: true });
  try {
    console.log(`A bare Next.js route handler (50 products as JSON), alone and behind an empty proxy; 8 clients, ${SECONDS} s per load:`);
    for (let round = 1; round <= 2; round++) {
      const [alone, behind] = await interleaved([() => fetch(bare.url), () => fetch(proxied.url)], { clients: 8, seconds: SECONDS });
      console.log(throughputLine(`round ${round}: bare route`, alone!));
      console.log(throughputLine(`round ${round}: behind an empty proxy`, behind!, alone));
    }
  } finally {
    await bare.stop();
    await proxied.stop();
  }
}

void main();
