// The last of the e2e web servers (e2e/playwright.config.ts): Playwright starts its web servers one after another and
// waits for each before the next, so the shops and the devnet are given there without a URL (Playwright starts them
// and goes on) and this process waits for all of them at once:   node e2e/shops-ready.mjs URL...
// It says "every e2e shop answers" when each URL answers as Playwright's own check wants it (a status from 200 to 403),
// then stays until the run stops it. A URL that does not answer in time is named, and the run stops there.
const urls = process.argv.slice(2);
const TIMEOUT_MS = 150_000;

async function answers(url) {
  try {
    const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5_000) });
    await res.body?.cancel();
    return res.status >= 200 && res.status < 404;
  } catch {
    return false;
  }
}

// Playwright started the shops a moment ago, and none listens yet (a shop's start takes a second or more): one that
// answers already is another process on that port, and the tests would run against it. Playwright's own check says
// the same for a web server with a URL.
const taken = (await Promise.all(urls.map(async (url) => ((await answers(url)) ? url : undefined)))).filter(Boolean);
if (taken.length > 0) {
  console.error(`e2e: ${taken.join(", ")} already answer before the shops started: stop what runs there first`);
  process.exit(1);
}

const started = Date.now();
const waiting = new Set(urls);
while (waiting.size > 0) {
  if (Date.now() - started > TIMEOUT_MS) {
    console.error(`e2e: no answer within ${TIMEOUT_MS / 1000} s from ${[...waiting].join(", ")} (see its output above)`);
    process.exit(1);
  }
  await Promise.all(
    [...waiting].map(async (url) => {
      if (await answers(url)) waiting.delete(url);
    }),
  );
  if (waiting.size > 0) await new Promise((r) => setTimeout(r, 250));
}
console.log(`every e2e shop answers (${urls.length}, after ${((Date.now() - started) / 1000).toFixed(1)} s)`);
// Until the run ends (SIGTERM), as the shops.
setInterval(() => {}, 1 << 30);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => process.exit(0));
