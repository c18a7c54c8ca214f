import { describe, expect, it, vi } from "vitest";
import { demoCatalog, testFamily } from "@/lib/catalog/demo/generate";
import { createDemoProvider, demoProvider } from "./demo";
import { parseBundle } from "./esim-bundle";
import { isIccid, isLuhnValid, luhnCheckDigit } from "@/lib/catalog/iccid";
import { providerFor } from "./provider-for";
import type { Db } from "@/lib/platform/db";
import type { Delivery, OrderToFulfil, Redemption } from "./types";

const provider = createDemoProvider("test key");
const createdAt = new Date("2026-03-01T12:00:00Z");

function order(over: Partial<OrderToFulfil>): OrderToFulfil {
  return {
    id: "ord_01JTESTTESTTESTTESTTESTTEST",
    invoiceId: "inv_01JTESTTESTTESTTESTTESTTEST",
    productId: "test-gift-card-code",
    productName: "Test Gift Card (Code and PIN)",
    kind: "gift_card",
    packageValue: "10",
    faceValueMinor: 1000n,
    currency: "USD",
    recipient: null,
    supplier: "demo",
    createdAt,
    brand: "Test Products",
    country: "US",
    recipientType: "none",
    redemptionInstructions: "Nothing to redeem.",
    dataMb: null,
    validityDays: null,
    ...over,
  };
}

async function delivered(o: OrderToFulfil, p = provider): Promise<Redemption> {
  const d: Delivery = await p.deliver(o);
  if ("pending" in d) throw new Error(`not delivered yet: ${d.message}`);
  if (d.failed) throw new Error(`not delivered: ${d.errorCode}`);
  return d.redemption;
}

describe("demo provider: gift cards", () => {
  it("gives the test card a grouped code, a PIN, the product's instructions and an expiry a year or more ahead", async () => {
    const r = await delivered(order({}));
    expect(r.code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    expect(r.pin).toMatch(/^\d{4}$/);
    expect(r.instructions).toBe("Nothing to redeem.");
    expect(r.extra_fields).toEqual({});
    const expiry = new Date(`${r.expiration_date}T00:00:00Z`).getTime();
    expect(expiry - createdAt.getTime()).toBeGreaterThanOrEqual(364 * 86_400_000);
    expect(expiry - createdAt.getTime()).toBeLessThanOrEqual(3 * 366 * 86_400_000);
  });

  it("delivers a PIN to every demo gift card whose instructions ask for one, and to none other", async () => {
    const mismatched: string[] = [];
    const seen = new Set<string>();
    for (const p of [...demoCatalog(), ...testFamily()]) {
      if (p.kind !== "gift_card" || seen.has(p.brand)) continue;
      const r = await provider.deliver(
        order({ productId: p.slug, productName: p.name, brand: p.brand, redemptionInstructions: p.redemptionInstructions ?? null }),
      );
      if ("pending" in r || r.failed || !r.redemption.code) continue;
      seen.add(p.brand);
      const asksForPin = /\bPIN\b/.test(p.redemptionInstructions ?? "");
      if (asksForPin !== Boolean(r.redemption.pin))
        mismatched.push(`${p.brand}: ${r.redemption.pin ? "a PIN the instructions do not name" : "no PIN, yet the instructions ask for one"}`);
    }
    expect(seen.size).toBeGreaterThan(50);
    expect(mismatched).toEqual([]);
  });

  it("is deterministic per order and key, and different across orders and keys", async () => {
    const a = await delivered(order({}));
    expect(await delivered(order({}))).toEqual(a);
    expect((await delivered(order({ id: "ord_01JOTHEROTHEROTHEROTHEROTH" }))).code).not.toBe(a.code);
    expect((await delivered(order({}), createDemoProvider("another key"))).code).not.toBe(a.code);
  });

  it("delivers the link product as a link under a neutral domain", async () => {
    const r = await delivered(order({ productId: "test-gift-card-link", productName: "Test Gift Card (Link)" }));
    expect(r.link).toMatch(/^https:\/\/redeem\.example\/g\/[A-Za-z0-9]{24}$/);
    expect(r.code).toBeUndefined();
  });

  it("shapes codes like the brand's own", async () => {
    const code = async (brand: string) => delivered(order({ productId: `${brand.toLowerCase()}-us`, brand }));
    expect((await code("Amazon")).code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{6}-[A-Z2-9]{4}$/);
    expect((await code("Steam")).code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    expect((await code("Apple")).code).toMatch(/^X[A-Z2-9]{15}$/);
    expect((await code("Xbox")).code).toMatch(/^([A-Z2-9]{5}-){4}[A-Z2-9]{5}$/);
    const walmart = await code("Walmart");
    expect(walmart.code).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/);
    expect(walmart.pin).toMatch(/^\d{4}$/);
    const visa = await code("Visa Prepaid");
    expect(visa.code).toMatch(/^4\d{3}( \d{4}){3}$/);
    expect(isLuhnValid(visa.code!.replace(/ /g, ""))).toBe(true);
    expect((await code("Some Unknown Brand")).code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
  });

  it("notes the recipient of e-mailed gift cards", async () => {
    const r = await delivered(order({ brand: "Starbucks", recipientType: "email", recipient: "ann@example.com" }));
    expect(r.extra_fields).toEqual({ recipient_email: "ann@example.com" });
  });

  it("rejects -fail products permanently", async () => {
    for (const productId of ["test-gift-card-code-fail", "test-phone-refill-fail"]) {
      const d = await provider.deliver(order({ productId, kind: productId.includes("phone") ? "topup" : "gift_card", recipient: "+14155550134" }));
      expect(d).toMatchObject({ failed: true, errorCode: "PROVIDER_REJECTED" });
    }
  });
});

describe("demo provider: eSIMs", () => {
  const esim = order({ productId: "test-esim-product", productName: "Test eSIM", kind: "esim", packageValue: "3GB, 30 Days", dataMb: 3072, validityDays: 30 });

  it("delivers a Luhn-valid ICCID starting 89, an LPA string as a QR code, and the bundle", async () => {
    const r = await delivered(esim);
    expect(r.iccid).toMatch(/^89\d{17,18}$/);
    expect(isLuhnValid(r.iccid!)).toBe(true);
    expect(r.barcode_format).toBe("QRCODE");
    expect(r.barcode_value).toMatch(/^LPA:1\$smdp\.esim\.example\$[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$/);
    expect(r.esim).toEqual({
      iccid: r.iccid,
      lpa: r.barcode_value,
      smdp: "smdp.esim.example",
      matching_id: r.barcode_value!.split("$")[2],
      bundle: { value: "3GB, 30 Days", data_mb: 3072, validity_days: 30 },
    });
    expect(r.extra_fields).toEqual({ smdp_address: "smdp.esim.example", activation_code: r.barcode_value!.split("$")[2] });
  });

  it("adds the bundle to the eSIM an order names by ICCID, with nothing new to install", async () => {
    const r = await delivered({ ...esim, recipient: "8944501234567890128" });
    expect(r).toMatchObject({ iccid: "8944501234567890128", extra_fields: { iccid: "8944501234567890128" } });
    expect(r.esim).toEqual({ iccid: "8944501234567890128", topup: true, bundle: { value: "3GB, 30 Days", data_mb: 3072, validity_days: 30 } });
    expect(r.barcode_value).toBeUndefined();
    expect(r.other).toBe("3GB, 30 Days added to the eSIM 8944501234567890128. It is active on that eSIM now: nothing to install.");
  });

  it("reads the bundle from the package value when the package has left the catalog", async () => {
    const r = await delivered({ ...esim, packageValue: "Unlimited, 7 Days", dataMb: null, validityDays: null });
    expect(r.esim?.bundle).toEqual({ value: "Unlimited, 7 Days", data_mb: null, validity_days: 7 });
  });
});

describe("demo provider: top-ups", () => {
  const refill = order({
    productId: "test-phone-refill",
    productName: "Test Phone Refill",
    kind: "topup",
    packageValue: "20",
    faceValueMinor: 2000n,
    recipient: "+14155550134",
  });

  it("records the phone number with the operator and a reference", async () => {
    const r = await delivered(refill);
    expect(r.topup).toEqual({ phone_number: "+14155550134", operator: "Test Products", reference: expect.stringMatching(/^TU\d{12}$/) });
    expect(r.other).toBe("$20 airtime sent to +14155550134 (Test Products).");
  });

  it("names data bundles as such, and fails a top-up without a number", async () => {
    const r = await delivered({ ...refill, brand: "MTN", packageValue: "2GB, 30 Days", currency: "NGN", recipient: "+2348031234567" });
    expect(r.other).toBe("2GB, 30 Days data bundle sent to +2348031234567 (MTN).");
    expect(await provider.deliver({ ...refill, recipient: null })).toMatchObject({ failed: true, errorCode: "MISSING_RECIPIENT" });
  });
});

describe("the process's provider", () => {
  it("is the demo provider for demo orders, keyed from the session secret rather than a constant", async () => {
    vi.stubEnv("SESSION_SECRET", "a session secret of at least 32 characters");
    try {
      expect(providerFor(order({}), {} as Db)).toBe(demoProvider());
      const r = await delivered(order({}), demoProvider());
      expect(r.code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
      expect(r.code).not.toBe((await delivered(order({}))).code);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("helpers", () => {
  it("computes Luhn check digits", () => {
    expect(luhnCheckDigit("7992739871")).toBe("3");
    expect(isLuhnValid("79927398713")).toBe(true);
    expect(isLuhnValid("79927398710")).toBe(false);
  });

  it("recognizes ICCIDs: 19 or 20 digits starting 89 with a valid check digit", () => {
    const payload = "894450123456789012";
    expect(isIccid(payload + luhnCheckDigit(payload))).toBe(true);
    expect(isIccid(`${payload}0${luhnCheckDigit(`${payload}0`)}`)).toBe(true);
    expect(isIccid(payload + ((Number(luhnCheckDigit(payload)) + 1) % 10))).toBe(false);
    expect(isIccid(`79${payload.slice(2)}${luhnCheckDigit(`79${payload.slice(2)}`)}`)).toBe(false);
    expect(isIccid("79927398713")).toBe(false);
  });

  it("parses eSIM bundle values", () => {
    expect(parseBundle("3GB, 30 Days")).toEqual({ data_mb: 3072, validity_days: 30 });
    expect(parseBundle("500MB, 1 Day")).toEqual({ data_mb: 500, validity_days: 1 });
    expect(parseBundle("Unlimited, 7 Days")).toEqual({ data_mb: null, validity_days: 7 });
    expect(parseBundle("25")).toEqual({ data_mb: null, validity_days: null });
  });
});
