import { describe, expect, it } from "vitest";
import { parseFxFeed, usdRates } from "./fx-feed";
import { ecbXml } from "@/test/catalog/ecb";

describe("exchange-rate feeds", () => {
  it("reads the ECB's daily XML, single-quoted attributes and namespaces included", () => {
    const feed = parseFxFeed(ecbXml("2026-11-24", { USD: "1.1485", JPY: "184.03", GBP: "0.87", CHF: "0.9302" }));
    expect(feed).toEqual({ base: "EUR", asOf: "2026-11-24", rates: { USD: "1.1485", JPY: "184.03", GBP: "0.87", CHF: "0.9302" } });
  });

  it("reads a day with one currency as a list too", () => {
    expect(parseFxFeed(ecbXml("2026-11-24", { USD: "1.1485" })).rates).toEqual({ USD: "1.1485" });
  });

  it("reads JSON {base, date, rates}, numbers or strings, and leaves the base out of the rates", () => {
    const feed = parseFxFeed(JSON.stringify({ amount: 1, base: "EUR", date: "2026-11-24", rates: { USD: 1.1485, JPY: "184.03", EUR: 1, XYZ: 1e-7 } }));
    expect(feed).toEqual({ base: "EUR", asOf: "2026-11-24", rates: { USD: "1.1485", JPY: "184.03", XYZ: "0.0000001" } });
  });

  it("derives dollars per unit exactly from the euro table, rounded up at 10 places", () => {
    const rates = usdRates({ base: "EUR", asOf: "2026-11-24", rates: { USD: "1.1485", JPY: "184.03", GBP: "0.87" } });
    // 1.1485 / 184.03 = 0.0062408302994...; per euro: the dollar rate itself; 1.1485 / 0.87 = 1.320114942528...
    expect(rates).toEqual({ USD: "1", EUR: "1.1485", JPY: "0.0062408303", GBP: "1.3201149426" });
    // Against a dollar base: the inverse.
    expect(usdRates({ base: "USD", asOf: "2026-11-24", rates: { EUR: "0.8" } })).toEqual({ USD: "1", EUR: "1.25" });
  });

  it("refuses what is not a rates document, with the reason", () => {
    expect(() => parseFxFeed("")).toThrow(/neither XML nor JSON/);
    expect(() => parseFxFeed("<html><body>Service unavailable</body></html>")).toThrow(/not the ECB's/);
    expect(() => parseFxFeed("<Envelope><Cube>")).toThrow(/not (well-formed|the ECB's)/);
    expect(() => parseFxFeed(ecbXml("2026-11-24", { USD: "-1" }))).toThrow(/not a currency and a positive rate/);
    expect(() => parseFxFeed(ecbXml("2026-11-24", { USD: "0" }))).toThrow(/positive rate/);
    expect(() => parseFxFeed(ecbXml("2026-11-24", { JPY: "184.03" }))).toThrow(/no US dollar rate/);
    expect(() => parseFxFeed(JSON.stringify({ base: "EUR", date: "24/11/2026", rates: { USD: 1.1 } }))).toThrow(/date/);
    expect(() => parseFxFeed(JSON.stringify({ base: "EUR", date: "2026-11-24", rates: { USD: "1e3" } }))).toThrow(/positive decimal/);
    expect(() => parseFxFeed(JSON.stringify({ base: "EUR", date: "2026-11-24", rates: { USD: Number.MAX_VALUE } }))).toThrow(/positive decimal/);
  });
});
