import { describe, expect, it } from "vitest";
import { listeningPort } from "./address-record";
import { devnetBanner, shopOrigin } from "./devnet-banner";

describe("the devnet's start banner", () => {
  it("frames the shop's URL, the dashboard and the generated admin token on plain lines, and what the token is for", () => {
    const banner = devnetBanner({ url: "http://localhost:3005", adminToken: "adm_abc", dataDir: `${process.cwd()}/.data` });
    const lines = banner.split("\n");
    const rules = lines.filter((l) => /^=+$/.test(l));
    expect(rules).toHaveLength(2);
    expect(lines).toContain(" Storefront devnet shop:  http://localhost:3005");
    expect(lines).toContain(" Admin token:             adm_abc");
    expect(banner).toContain("http://localhost:3005/dashboard/sign-in");
    expect(banner).toContain("Bearer token for npm run admin, /api/admin");
    expect(banner).toContain("kept in .data/secrets/admin-token");
    // Nothing in it reads as a JSON log line.
    expect(lines.some((l) => l.startsWith("{"))).toBe(false);
  });

  it("prints no token the operator set (ADMIN_TOKEN)", () => {
    expect(devnetBanner({ url: "http://localhost:3000", adminToken: undefined, dataDir: "/srv/data" })).toContain(
      "Admin token:             the one set in ADMIN_TOKEN",
    );
  });

  it("names the address Next.js listens on: the port it bound, its printed origin", () => {
    expect(listeningPort(3000, { PORT: "3005" })).toBe(3005);
    expect(listeningPort(3000, { PORT: "" })).toBe(3000);
    expect(listeningPort(3000, { PORT: "99999" })).toBe(3000);
    expect(shopOrigin(3005, { __NEXT_PRIVATE_ORIGIN: "http://127.0.0.1:3005" })).toBe("http://127.0.0.1:3005");
    expect(shopOrigin(3005, {})).toBe("http://localhost:3005");
  });
});
