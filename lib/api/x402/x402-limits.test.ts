import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { answerProblems } from "@/test/openapi";
import { x402Response } from "@/lib/openapi/x402";
import { X402_LIMITS } from "@/lib/platform/ratelimit";
import { PEER_HEADER, installPeerAddress } from "@/lib/platform/http/peer-address";
import { checkX402Limits, clientIp, RateLimitedError } from "./x402-limits";

const req = (headers: Record<string, string> = {}) => new Request("http://shop.test/x402/gift-cards/search?q=steam", { headers });

describe("the /x402 limits", () => {
  // The addresses below are the sockets' as the server writes them (lib/platform/http/peer-address.ts).
  installPeerAddress();

  it("reads the client address from the socket, a trusted proxy chain, or Vercel's headers", () => {
    // A plain server: headers a client writes are not believed, only the socket's address (written by the server).
    expect(clientIp(req({ "x-real-ip": "203.0.113.7" }), { vercel: false })).toBeUndefined();
    expect(clientIp(req({ "x-forwarded-for": "203.0.113.7" }), { vercel: false })).toBeUndefined();
    installPeerAddress();
    expect(clientIp(req({ [PEER_HEADER]: "::ffff:203.0.113.7", "x-real-ip": "127.0.0.1" }), { vercel: false })).toBe("::ffff:203.0.113.7");
    // On Vercel the platform replaces the headers with the client's address.
    expect(clientIp(req({ "x-real-ip": "203.0.113.7" }), { vercel: true })).toBe("203.0.113.7");
    expect(clientIp(req({ "x-forwarded-for": "198.51.100.1, 10.0.0.2" }), { vercel: true })).toBe("198.51.100.1");
    expect(clientIp(new Headers({ "x-real-ip": "203.0.113.7" }), { vercel: true })).toBe("203.0.113.7");
    expect(clientIp(req(), { vercel: true })).toBeUndefined();
    // This machine is not counted per address.
    expect(clientIp(req({ [PEER_HEADER]: "127.0.0.1" }), { vercel: false })).toBeUndefined();
    expect(clientIp(req({ "x-forwarded-for": "::1" }), { vercel: true })).toBeUndefined();
    expect(clientIp(req({ "x-forwarded-for": "::ffff:127.0.0.1" }), { vercel: true })).toBeUndefined();
    // Behind proxies that append: the entry the outermost trusted proxy wrote, whatever the client put before it.
    expect(clientIp(req({ "x-forwarded-for": "6.6.6.6, 198.51.100.1" }), { hops: 1 })).toBe("198.51.100.1");
    expect(clientIp(req({ "x-forwarded-for": "6.6.6.6, 198.51.100.1, 10.0.0.2" }), { hops: 2 })).toBe("198.51.100.1");
    expect(clientIp(req({ "x-real-ip": "6.6.6.6", "x-forwarded-for": "198.51.100.1" }), { hops: 1 })).toBe("198.51.100.1");
    // Fewer entries than proxies, or none: the request did not come through them all (it reached the shop directly),
    // so the socket is the client, whatever the header says.
    expect(clientIp(req({ [PEER_HEADER]: "203.0.113.8", "x-forwarded-for": "198.51.100.1" }), { hops: 2 })).toBe("203.0.113.8");
    expect(clientIp(req({ [PEER_HEADER]: "203.0.113.8" }), { hops: 1 })).toBe("203.0.113.8");
    expect(clientIp(req({ [PEER_HEADER]: "203.0.113.8", "x-forwarded-for": "" }), { hops: 1 })).toBe("203.0.113.8");
    // A proxy on this machine that sent no header is not a client to count either.
    expect(clientIp(req({ [PEER_HEADER]: "127.0.0.1" }), { hops: 1 })).toBeUndefined();
  });

  it("takes the socket's address, not a header the client wrote, on a real server", async () => {
    installPeerAddress();
    const server = http.createServer((r, res) => res.end(r.headers[PEER_HEADER]));
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { [PEER_HEADER]: "203.0.113.9", "x-real-ip": "203.0.113.9" } });
      expect(await res.text()).toBe("127.0.0.1");
    } finally {
      server.close();
    }
  });

  it("lets an address make its budget of requests, then answers 429 with Retry-After", async () => {
    const r = req({ [PEER_HEADER]: "192.0.2.44" });
    for (let i = 0; i < X402_LIMITS.ip.points; i++) await checkX402Limits(r);
    const err = await checkX402Limits(r).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    const res = (err as RateLimitedError).toResponse();
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await res.json()) as { code: string };
    expect(body.code).toBe("RATE_LIMITED");
    expect(answerProblems(x402Response("GET", "/x402/gift-cards/search", 429), body, res.headers)).toEqual([]);
    // Another address is not affected.
    await checkX402Limits(req({ [PEER_HEADER]: "192.0.2.45" }));
  });

  it("counts a signed-in wallet across addresses", async () => {
    const wallet = "eip155:0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF";
    for (let i = 0; i < X402_LIMITS.wallet.points; i++) await checkX402Limits(req({ [PEER_HEADER]: `198.51.100.${i % 200}` }), wallet);
    await expect(checkX402Limits(req({ [PEER_HEADER]: "198.51.100.250" }), wallet)).rejects.toBeInstanceOf(RateLimitedError);
  });
});
