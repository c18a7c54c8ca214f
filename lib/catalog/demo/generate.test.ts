import { describe, expect, it } from "vitest";
import fx from "@/lib/catalog/fx-rates.json";
import { productInputSchema, type ProductInput } from "@/lib/catalog/product-input";
import { brandColors, demoCatalog, localPrice, localRange, testFamily } from "./generate";

const catalog = demoCatalog();
const tests = testFamily();
const all = [...catalog, ...tests];
const ofKind = (kind: ProductInput["kind"]) => catalog.filter((p) => p.kind === kind);

/** WCAG contrast ratio of two "#RRGGBB" colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const n = parseInt(hex.slice(1), 16);
    const [r, g, bl] = [n >> 16, (n >> 8) & 255, n & 255].map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

describe("demo catalog", () => {
  it("passes the product schema, every product", () => {
    const failures = all.flatMap((p) => {
      const r = productInputSchema.safeParse(p);
      return r.success ? [] : [`${p.slug}: ${JSON.stringify(r.error.issues)}`];
    });
    expect(failures).toEqual([]);
  });

  it("has unique slugs across the catalog and the test family", () => {
    const seen = new Set<string>();
    const dupes = all.map((p) => p.slug).filter((s) => (seen.has(s) ? true : (seen.add(s), false)));
    expect(dupes).toEqual([]);
  });

  it("is big and wide enough", () => {
    expect(catalog.length).toBeGreaterThanOrEqual(500);
    const countries = new Set(catalog.flatMap((p) => [...(p.country ? [p.country] : []), ...(p.coverage ?? [])]));
    expect(countries.size).toBeGreaterThanOrEqual(40);
    expect(ofKind("gift_card").length).toBeGreaterThanOrEqual(300);
    expect(ofKind("esim").length).toBeGreaterThanOrEqual(40);
    expect(ofKind("topup").length).toBeGreaterThanOrEqual(40);
    expect(new Set(ofKind("topup").map((p) => p.country)).size).toBeGreaterThanOrEqual(20);
  });

  it("has the big brands", () => {
    const brands = new Set(catalog.map((p) => p.brand));
    for (const b of ["Amazon", "Steam", "Apple", "Google Play", "Netflix", "Spotify", "Uber", "Airbnb", "PlayStation", "Xbox"]) {
      expect(brands, b).toContain(b);
    }
  });

  it("has the expected names and slugs", () => {
    const bySlug = new Map(catalog.map((p) => [p.slug, p]));
    expect(bySlug.get("amazon-us")?.name).toBe("Amazon Gift Card US");
    expect(bySlug.get("steam-de")?.name).toBe("Steam Wallet Card Germany");
    expect(bySlug.get("google-play-in")?.currency).toBe("INR");
    expect(bySlug.get("esim-japan")).toMatchObject({ name: "Japan eSIM", country: "JP", kind: "esim" });
    expect(bySlug.get("esim-europe")?.name).toBe("Europe eSIM (32 countries)");
    expect(bySlug.get("mtn-nigeria-topup")).toMatchObject({ name: "MTN Nigeria Top-up", currency: "NGN" });
  });

  it("has regional eSIMs for Europe and Asia covering at least 10 countries, without a single country", () => {
    for (const region of ["Europe", "Asia"]) {
      const p = ofKind("esim").find((e) => e.region === region);
      expect(p, region).toBeDefined();
      expect(p?.country).toBeUndefined();
      expect(p?.coverage?.length ?? 0).toBeGreaterThanOrEqual(10);
    }
    for (const p of ofKind("esim")) {
      expect(p.currency).toBe("USD");
      expect(Boolean(p.country) !== Boolean(p.region), p.slug).toBe(true);
    }
  });

  it("uses only currencies of the FX table", () => {
    const known = new Set(Object.keys(fx.usdPerUnit));
    expect(all.map((p) => p.currency).filter((c) => !known.has(c))).toEqual([]);
  });

  it("gives every top-up a phone prefix and the phone-number recipient", () => {
    for (const p of ofKind("topup")) {
      expect(p.phonePrefixes?.length ?? 0, p.slug).toBeGreaterThan(0);
      expect(p.recipientType, p.slug).toBe("phone_number");
    }
  });

  it("marks about 2% of products sold out", () => {
    const out = catalog.filter((p) => p.inStock === false).length;
    expect(out).toBeGreaterThanOrEqual(Math.floor(catalog.length * 0.01));
    expect(out).toBeLessThanOrEqual(Math.ceil(catalog.length * 0.04));
  });

  it("is deterministic", () => {
    expect(demoCatalog()).toEqual(catalog);
    expect(testFamily()).toEqual(tests);
    expect(brandColors()).toEqual(brandColors());
  });

  it("has readable colours for every brand", () => {
    const colors = brandColors();
    for (const brand of new Set(all.map((p) => p.brand))) {
      const c = colors[brand];
      expect(c, brand).toBeDefined();
      if (!c) continue;
      expect(c.bg, brand).toMatch(/^#[0-9A-F]{6}$/i);
      expect(c.fg, brand).toMatch(/^#[0-9A-F]{6}$/i);
      expect(contrast(c.bg, c.fg), brand).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe("test family", () => {
  const amounts = ["10", "20", "50", "100"];

  it("has exactly the six test products", () => {
    expect(tests.map((p) => p.slug).sort()).toEqual(
      ["test-esim-product", "test-gift-card-code", "test-gift-card-code-fail", "test-gift-card-link", "test-phone-refill", "test-phone-refill-fail"].sort(),
    );
    for (const p of tests) {
      expect(p, p.slug).toMatchObject({ isTest: true, currency: "USD", country: "US", brand: "Test Products", categories: ["test"] });
    }
  });

  it("has the packages the integration tests buy", () => {
    for (const p of tests.filter((t) => t.kind !== "esim")) {
      expect(
        p.packages?.map((k) => k.value),
        p.slug,
      ).toEqual(amounts);
    }
    for (const slug of ["test-phone-refill", "test-phone-refill-fail"]) {
      expect(tests.find((p) => p.slug === slug)).toMatchObject({ kind: "topup", recipientType: "phone_number", phonePrefixes: ["+1"] });
    }
    const esim = tests.find((p) => p.slug === "test-esim-product");
    expect(esim).toMatchObject({ kind: "esim", coverage: ["US"] });
    expect(esim?.packages?.map((k) => k.faceValue)).toEqual(amounts);
    expect(esim?.packages?.map((k) => k.value)).toEqual(["1GB, 7 Days", "3GB, 30 Days", "10GB, 30 Days", "Unlimited, 30 Days"]);
  });
});

describe("local prices", () => {
  it("rounds converted prices the way shops do", () => {
    expect(localPrice(9.99, "USD")).toBe("9.99");
    expect(localPrice(9.99, "EUR")).toBe("9.99");
    expect(localPrice(9.99, "GBP")).toBe("7.99");
    expect(localPrice(9.99, "JPY")).toBe("1500");
    expect(localPrice(9.99, "IDR")).toBe("160000");
  });

  it("scales open ranges to round local amounts", () => {
    expect(localRange([1, 2000], "USD")).toEqual({ min: "1", max: "2000", step: "1" });
    expect(localRange([5, 500], "JPY")).toEqual({ min: "1000", max: "100000", step: "100" });
  });
});
