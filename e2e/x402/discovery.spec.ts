import { expect, test } from "@playwright/test";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { extractDiscoveryInfo, validateDiscoveryExtension, type DiscoveryExtension } from "@x402/extensions/bazaar";
import { decodeRequired, devnetNetworks, evmBuyer, isEvm } from "./devnet-client";
import { documentedFetch } from "./documented";

// How an agent finds the shop's paid routes without documentation: /.well-known/x402, /llms.txt, and the Bazaar
// metadata in every 402 (x402 `extensions.bazaar`), read with the official extension package.

type WellKnown = { version: number; resources: string[]; instructions: string };

const PAID = [
  ["GET", "/x402/checkout/info"],
  ["GET", "/x402/gift-cards/search"],
  ["GET", "/x402/esims/search"],
  ["GET", "/x402/topups/search"],
  ["GET", "/x402/products/detail"],
  ["POST", "/x402/invoice/create"],
  ["GET", "/x402/invoice/status"],
  ["POST", "/x402/invoice/pay"],
] as const;

test("/.well-known/x402 lists every paid route as a URL of the shop, and each GET one answers a 402 that describes it", async ({ baseURL }) => {
  const res = await fetch(`${baseURL}/.well-known/x402`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  const doc = (await res.json()) as WellKnown;
  expect(doc.version).toBe(1);
  expect(doc.resources).toHaveLength(PAID.length);
  // One form for every entry: an absolute URL on the shop's origin (what crawlers probe and clients check).
  for (const r of doc.resources) expect(URL.canParse(r) && new URL(r).origin, r).toBe(new URL(baseURL!).origin);
  for (const [method, path] of PAID) {
    const entry = doc.resources.find((r) => new URL(r).pathname === path);
    expect(entry, path).toBeTruthy();
    if (method !== "GET") continue;
    const paid = await documentedFetch(entry!);
    expect(paid.status, entry).toBe(402);
    // docs/deploy.md tells operators to let proxies buffer response headers of 16 KB; the 402's stays well under it.
    expect(paid.headers.get("payment-required")!.length, entry).toBeLessThan(8192);
    const bazaar = decodeRequired(paid).extensions?.bazaar as DiscoveryExtension;
    expect(validateDiscoveryExtension(bazaar), path).toEqual({ valid: true });
    expect(bazaar.info.input).toMatchObject({ type: "http", method: "GET" });
  }
});

test("the POST routes' 402s describe their JSON bodies, and the description is what a facilitator catalogs", async ({ baseURL }) => {
  const [network] = await devnetNetworks(baseURL!);
  // invoice/create refuses a body it cannot read before asking for the fee: the 402 comes to a valid cart.
  const create = await documentedFetch(`${baseURL}/x402/invoice/create`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ items: [{ product_id: "steam-us", package_value: "25" }] }),
  });
  expect(create.status).toBe(402);
  const required = decodeRequired(create);
  const bazaar = required.extensions?.bazaar as DiscoveryExtension;
  expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
  expect(bazaar.info.input).toMatchObject({ type: "http", method: "POST", bodyType: "json", body: { items: [{ product_id: "steam-us" }] } });
  // What a facilitator extracts from a payment that echoes it (x402 clients copy the 402's extensions).
  const info = extractDiscoveryInfo(
    { x402Version: 2, resource: required.resource, accepted: required.accepts[0]!, payload: {}, extensions: required.extensions },
    required.accepts.find((a) => a.network === network!.network)!,
  );
  expect(info?.resourceUrl).toBe(`${baseURL}/x402/invoice/create`);
  expect(info?.discoveryInfo.input).toMatchObject({ method: "POST" });
});

test("a paid call whose payment echoes the Bazaar metadata settles as before", async ({ baseURL }) => {
  const n = (await devnetNetworks(baseURL!)).find(isEvm)!;
  const buyer = await evmBuyer(baseURL!, n);
  const res = await buyer.pay(`${baseURL}/x402/esims/search?q=japan`);
  expect(res.status).toBe(200);
  expect(decodePaymentResponseHeader(res.headers.get("payment-response")!)).toMatchObject({ success: true, network: n.network });
  const payload = JSON.parse(Buffer.from(buyer.sent[0]!, "base64").toString("utf8")) as { extensions?: { bazaar?: unknown } };
  expect(payload.extensions?.bazaar).toBeTruthy();
});

test("/llms.txt tells an agent what the shop sells and how to buy, with links that answer", async ({ baseURL }) => {
  const res = await fetch(`${baseURL}/llms.txt`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/markdown");
  const text = await res.text();
  expect(text.split("\n")[0]).toBe("# x402 Storefront");
  for (const [method, path] of PAID) expect(text).toContain(`[${method} ${path}](${baseURL}${path})`);
  const links = [...text.matchAll(/\]\((http[^)]+)\)/g)].map((m) => m[1]!);
  expect(text).toContain(`- [MCP server](${baseURL}/mcp)`);
  // The API's own links answer 402 (or, /mcp, 405 to a GET): the documents and pages answer 200.
  for (const link of links.filter((l) => !(l.includes("/x402/") || l.endsWith("/mcp")) || l.endsWith("openapi.json"))) {
    expect((await fetch(link)).status, link).toBe(200);
  }
});
