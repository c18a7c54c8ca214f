import { describe, expect, it, vi } from "vitest";
import { POST } from "@/app/mcp/route";
import { parseConfig } from "@/lib/platform/config";
import { mcpAllowed } from "./server";

// DNS rebinding protection on /mcp, through its route handler: a page on a foreign name that resolves to the shop
// (or to a developer's machine) reaches no tool. Allowed: PUBLIC_ORIGIN's Host and Origin, and on the devnet the local
// names at any port, as the e2e shops and local agents reach it (http://127.0.0.1:PORT/mcp). A file of the pglite
// project for the process configuration of its own (PUBLIC_ORIGIN, read once), not for its database.

vi.hoisted(() => {
  process.env.PUBLIC_ORIGIN = "https://shop.example";
});

const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

async function mcp(headers: Record<string, string>) {
  const res = await POST(
    new Request("http://internal:3000/mcp", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(LIST),
    }),
  );
  return { status: res.status, body: (await res.json()) as { result?: { tools: { name: string }[] }; error?: { message: string } } };
}

describe("/mcp answers its own names only", () => {
  it("serves PUBLIC_ORIGIN's host, and the local names at any port on the devnet", async () => {
    const cases: Record<string, string>[] = [
      { host: "shop.example" },
      { host: "shop.example", origin: "https://shop.example" },
      { host: "shop.example:443" },
      { host: "127.0.0.1:4311" },
      { host: "localhost:3000", origin: "http://localhost:3000" },
      { host: "[::1]:8080", origin: "http://[::1]:8080" },
      { host: "localhost" },
    ];
    for (const headers of cases) {
      const { status, body } = await mcp(headers);
      expect(status, JSON.stringify(headers)).toBe(200);
      expect(body.result?.tools.map((t) => t.name)).toContain("search_products");
    }
  });

  it("refuses a foreign Host or Origin with the SDK's 403, before any tool", async () => {
    const cases: Record<string, string>[] = [
      { host: "evil.example" },
      { host: "evil.example:3000" },
      { host: "shop.example.evil.example" },
      { host: "shop.example", origin: "https://evil.example" },
      { host: "127.0.0.1:3000", origin: "http://evil.example:3000" },
      { host: "localhost.evil.example" },
    ];
    for (const headers of cases) {
      const { status, body } = await mcp(headers);
      expect(status, JSON.stringify(headers)).toBe(403);
      expect(body.error?.message).toMatch(/^Invalid (Host|Origin) header/);
    }
  });

  it("allows the local names on the devnet only, and never checks against an empty list", () => {
    const local = new Request("http://x/mcp", { headers: { host: "localhost:3000" } });
    const testnet = mcpAllowed(local, parseConfig({ NETWORK_MODE: "testnet", PUBLIC_ORIGIN: "https://shop.example" }));
    expect(testnet).toEqual({ allowedHosts: ["shop.example", "shop.example:443"], allowedOrigins: ["https://shop.example"] });
    const devnet = mcpAllowed(new Request("http://x/mcp", { headers: { host: "evil.example" } }), parseConfig({}));
    expect(devnet.allowedHosts).not.toContain("evil.example");
    expect(devnet.allowedHosts.length).toBeGreaterThan(0);
    expect(devnet.allowedOrigins.length).toBeGreaterThan(0);
  });
});
