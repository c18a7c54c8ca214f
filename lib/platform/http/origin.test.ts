import { describe, expect, it } from "vitest";
import { isSameOriginPost, publicOrigin, publicOriginFrom } from "./origin";

describe("publicOrigin", () => {
  it("prefers the configured origin", () => {
    expect(publicOrigin(new Request("http://127.0.0.1:3000/x"), "https://shop.example.com")).toBe("https://shop.example.com");
  });

  it("derives the origin from the request, honouring a proxy's forwarded headers", () => {
    expect(publicOrigin(new Request("http://localhost:3000/search"), undefined)).toBe("http://localhost:3000");
    const proxied = new Request("http://10.0.0.5:3000/x", { headers: { "x-forwarded-host": "shop.example.com", "x-forwarded-proto": "https" } });
    expect(publicOrigin(proxied, undefined)).toBe("https://shop.example.com");
  });

  it("reads the same from headers alone", () => {
    expect(publicOriginFrom(new Headers({ host: "127.0.0.1:3411" }), undefined, undefined)).toBe("http://127.0.0.1:3411");
    expect(
      publicOriginFrom(new Headers({ host: "10.0.0.5", "x-forwarded-host": "shop.example.com", "x-forwarded-proto": "https" }), undefined, undefined),
    ).toBe("https://shop.example.com");
    expect(publicOriginFrom(new Headers({ host: "10.0.0.5" }), undefined, "https://shop.example.com")).toBe("https://shop.example.com");
  });

  it("tells a POST from the shop's own pages from a cross-site one", () => {
    const post = (h: Record<string, string>, configured?: string) => isSameOriginPost(new Headers(h), configured);
    expect(post({ host: "127.0.0.1:3411", origin: "http://127.0.0.1:3411" })).toBe(true);
    expect(post({ host: "10.0.0.5:3000", "x-forwarded-host": "shop.example.com", origin: "https://shop.example.com" })).toBe(true);
    expect(post({ host: "10.0.0.5:3000", origin: "https://shop.example.com" }, "https://shop.example.com")).toBe(true);
    expect(post({ host: "shop.example.com", origin: "https://evil.example" })).toBe(false);
    expect(post({ host: "shop.example.com", origin: "https://shop.example.com.evil.example" })).toBe(false);
    expect(post({ host: "shop.example.com" })).toBe(false);
    expect(post({ host: "shop.example.com", origin: "null" })).toBe(false);
    expect(post({ host: "shop.example.com", origin: "not a url" })).toBe(false);
  });
});
