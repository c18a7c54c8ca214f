import { describe, expect, it } from "vitest";
import { checkWebhookUrl, parseWebhookUrl, resolveWebhookTarget, type Resolver } from "./url-guard";

/** A DNS stand-in: names to addresses; anything else is NXDOMAIN. */
function fakeDns(table: Record<string, string[]>): Resolver {
  return async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

const dns = fakeDns({
  "hooks.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  localhost: ["127.0.0.1", "::1"],
  "internal.example.com": ["10.0.0.7"],
  "mixed.example.com": ["93.184.216.34", "192.168.1.20"],
  "metadata.example.com": ["169.254.169.254"],
  "v6only.example.com": ["2606:4700:4700::1111"],
});

describe("parseWebhookUrl", () => {
  it("accepts https everywhere and http in devnet mode only", () => {
    expect(parseWebhookUrl("https://hooks.example.com/x402?a=1", "mainnet")).toMatchObject({ ok: true });
    expect(parseWebhookUrl("http://hooks.example.com/x402", "devnet")).toMatchObject({ ok: true });
    expect(parseWebhookUrl("http://hooks.example.com/x402", "testnet")).toEqual({ ok: false, reason: "must be an https URL" });
    expect(parseWebhookUrl("http://hooks.example.com/x402", "mainnet")).toEqual({ ok: false, reason: "must be an https URL" });
  });

  it("refuses what is not a plain web URL", () => {
    expect(parseWebhookUrl("hooks.example.com/x402", "devnet")).toEqual({ ok: false, reason: "is not an absolute URL" });
    expect(parseWebhookUrl("ftp://hooks.example.com/", "devnet")).toEqual({ ok: false, reason: "must be an http or https URL" });
    expect(parseWebhookUrl("file:///etc/passwd", "mainnet")).toEqual({ ok: false, reason: "must be an https URL" });
    expect(parseWebhookUrl("https://user:pw@hooks.example.com/", "mainnet")).toEqual({ ok: false, reason: "must not contain a user name or password" });
    expect(parseWebhookUrl(`https://hooks.example.com/${"a".repeat(2100)}`, "mainnet")).toEqual({ ok: false, reason: "must be at most 2048 characters" });
  });

  it("judges an IP address host without DNS, in whatever form the URL writes it", () => {
    expect(parseWebhookUrl("https://127.0.0.1/hook", "testnet")).toEqual({
      ok: false,
      reason: "goes to 127.0.0.1, a loopback address (allowed in devnet mode only)",
    });
    expect(parseWebhookUrl("http://127.0.0.1:3000/hook", "devnet")).toMatchObject({ ok: true });
    expect(parseWebhookUrl("http://[::1]:3000/hook", "devnet")).toMatchObject({ ok: true });
    // The URL parser normalizes these to 127.0.0.1 / 10.0.0.1 before the guard sees them.
    expect(parseWebhookUrl("https://2130706433/", "mainnet")).toMatchObject({ ok: false, reason: expect.stringContaining("127.0.0.1, a loopback") });
    expect(parseWebhookUrl("https://0x7f.1/", "mainnet")).toMatchObject({ ok: false, reason: expect.stringContaining("127.0.0.1") });
    expect(parseWebhookUrl("https://10.1/", "mainnet")).toMatchObject({ ok: false, reason: expect.stringContaining("10.0.0.1, a private address") });
    expect(parseWebhookUrl("https://[::ffff:169.254.169.254]/", "mainnet")).toMatchObject({ ok: false, reason: expect.stringContaining("link-local") });
    expect(parseWebhookUrl("https://[fe80::1]/", "devnet")).toMatchObject({ ok: false, reason: expect.stringContaining("link-local") });
    expect(parseWebhookUrl("https://169.254.169.254/latest/meta-data", "devnet")).toEqual({
      ok: false,
      reason: "goes to 169.254.169.254, the cloud metadata address",
    });
    expect(parseWebhookUrl("https://8.8.8.8/hook", "mainnet")).toMatchObject({ ok: true });
  });
});

describe("resolveWebhookTarget", () => {
  it("returns every address of a public host, to connect to those only", async () => {
    const t = await resolveWebhookTarget("https://hooks.example.com/x", "mainnet", { resolve: dns });
    expect(t).toMatchObject({
      ok: true,
      addresses: [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
      ],
    });
  });

  it("refuses a host with any non-public address (testnet), naming it", async () => {
    expect(await resolveWebhookTarget("https://internal.example.com/x", "testnet", { resolve: dns })).toEqual({
      ok: false,
      reason: "host internal.example.com resolves to 10.0.0.7, a private address",
    });
    expect(await resolveWebhookTarget("https://mixed.example.com/x", "mainnet", { resolve: dns })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("192.168.1.20"),
    });
    expect(await resolveWebhookTarget("https://metadata.example.com/x", "devnet", { resolve: dns })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("cloud metadata"),
    });
    expect(await resolveWebhookTarget("https://localhost/x", "testnet", { resolve: dns })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("loopback"),
    });
  });

  it("lets devnet mode reach loopback by name and by address, over http", async () => {
    expect(await resolveWebhookTarget("http://localhost:4000/x", "devnet", { resolve: dns })).toMatchObject({
      ok: true,
      addresses: [{ address: "127.0.0.1" }, { address: "::1" }],
    });
    expect(await resolveWebhookTarget("http://[::1]:4000/x", "devnet", { resolve: dns })).toMatchObject({
      ok: true,
      addresses: [{ address: "::1", family: 6 }],
    });
  });

  it("says when a host does not resolve", async () => {
    expect(await resolveWebhookTarget("https://nowhere.example.com/", "mainnet", { resolve: dns })).toEqual({
      ok: false,
      reason: "host nowhere.example.com does not resolve (ENOTFOUND)",
      dnsCode: "ENOTFOUND",
    });
  });
});

describe("checkWebhookUrl", () => {
  it("accepts a public https URL and gives it back normalized", async () => {
    expect(await checkWebhookUrl("HTTPS://Hooks.Example.com/x402", "mainnet", { resolve: dns })).toEqual({ ok: true, url: "https://hooks.example.com/x402" });
    expect(await checkWebhookUrl("https://v6only.example.com/", "testnet", { resolve: dns })).toEqual({ ok: true, url: "https://v6only.example.com/" });
  });

  it("refuses with a reason: scheme, address, and names that do not exist", async () => {
    expect(await checkWebhookUrl("http://hooks.example.com/", "mainnet", { resolve: dns })).toEqual({ ok: false, reason: "must be an https URL" });
    expect(await checkWebhookUrl("https://internal.example.com/", "mainnet", { resolve: dns })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("private address"),
    });
    expect(await checkWebhookUrl("https://nowhere.example.com/", "mainnet", { resolve: dns })).toMatchObject({
      ok: false,
      reason: expect.stringContaining("does not resolve"),
    });
  });

  it("resolves with the system's resolver by default (localhost)", async () => {
    expect(await checkWebhookUrl("http://localhost:3000/hooks", "devnet")).toEqual({ ok: true, url: "http://localhost:3000/hooks" });
    expect(await checkWebhookUrl("https://localhost/hooks", "mainnet")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^host localhost resolves to .*, a loopback address/),
    });
  });

  it("accepts a URL when DNS only fails to answer: the send-time guard decides then", async () => {
    const flaky: Resolver = async () => {
      throw Object.assign(new Error("getaddrinfo EAI_AGAIN"), { code: "EAI_AGAIN" });
    };
    expect(await checkWebhookUrl("https://hooks.example.com/", "mainnet", { resolve: flaky })).toEqual({ ok: true, url: "https://hooks.example.com/" });
    expect(await resolveWebhookTarget("https://hooks.example.com/", "mainnet", { resolve: flaky })).toMatchObject({ ok: false, dnsCode: "EAI_AGAIN" });
  });
});
