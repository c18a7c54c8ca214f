// The load of the benchmarks: clients that each send requests one after another for a while, and what they saw.

export type Figures = { perSecond: number; p50: number; p95: number; requests: number };

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/**
 * `clients` callers, each sending `call(i)` one after another for `seconds`; any answer but `expected` stops the
 * benchmark (a figure of refusals is no figure). A second of warm-up comes first, not counted.
 */
export async function load(call: (i: number) => Promise<Response>, opts: { clients: number; seconds: number; expected?: number }): Promise<Figures> {
  const [figures] = await interleaved([call], opts);
  return figures!;
}

/**
 * Several loads taken in turns, a second of each at a time, until each has run `seconds`: a machine that slows down or
 * speeds up meanwhile (a neighbour, the clock) weighs on all of them alike, so their ratio is the same machine's. Each
 * load gets a second of warm-up first, not counted.
 */
export async function interleaved(
  calls: ((i: number) => Promise<Response>)[],
  opts: { clients: number; seconds: number; expected?: number },
): Promise<Figures[]> {
  const expected = opts.expected ?? 200;
  const run = async (call: (i: number) => Promise<Response>, seconds: number, latencies: number[] = []) => {
    const until = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: opts.clients }, async (_, c) => {
        for (let i = c; performance.now() < until; i += opts.clients) {
          const t = performance.now();
          const res = await call(i);
          const body = await res.text();
          if (res.status !== expected) throw new Error(`answered ${res.status} (expected ${expected}): ${body.slice(0, 300)}`);
          latencies.push(performance.now() - t);
        }
      }),
    );
    return latencies;
  };
  for (const call of calls) await run(call, 1);
  const latencies = calls.map((): number[] => []);
  for (let done = 0; done < opts.seconds; done++) {
    const slice = Math.min(1, opts.seconds - done);
    for (const [k, call] of calls.entries()) await run(call, slice, latencies[k]);
  }
  return latencies.map((l) => {
    l.sort((a, b) => a - b);
    return { perSecond: l.length / opts.seconds, p50: percentile(l, 50), p95: percentile(l, 95), requests: l.length };
  });
}

/** Time to the first byte of the answer (headers), p50 and p95 over `n` requests one after another. */
export async function timeToFirstByte(url: string, n: number): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < n + 3; i++) {
    const t = performance.now();
    const res = await fetch(url);
    const ttfb = performance.now() - t;
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    await res.arrayBuffer();
    if (i >= 3) times.push(ttfb);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

/** One line of a throughput figure, with its share of the bare route's requests per second. */
export function throughputLine(label: string, f: Figures, bare?: Figures): string {
  const share = bare ? `   ${((100 * f.perSecond) / bare.perSecond).toFixed(0).padStart(3)}% of bare` : "";
  return `  ${label.padEnd(44)} ${f.perSecond.toFixed(0).padStart(6)} req/s   p50 ${ms(f.p50).padStart(9)}   p95 ${ms(f.p95).padStart(9)}${share}`;
}
