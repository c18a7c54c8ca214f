import { describe, expect, it } from "vitest";
import { ImportFormatError, parseCatalogFile, validateCatalogRows } from "./import";

const header =
  "slug,name,kind,brand,country,coverage,region,currency,categories,description,redemption_instructions,recipient_type,phone_prefixes,in_stock,popularity,packages,range_min,range_max,range_step";

describe("catalog import validation", () => {
  it("reads CSV rows with lists, package face values and ranges", () => {
    const csv = [
      header,
      "steam-nl,Steam Wallet Netherlands,gift_card,Steam,NL,,,EUR,gaming;pc,Steam credit.,Redeem in Steam.,,,true,700,20;50;100,,,",
      'esim-nordics,Nordics eSIM,esim,Storefront eSIM,,SE;NO;DK;FI,Nordics,USD,esim;data,Data.,Scan the QR code.,,,yes,,"3GB, 30 Days=11.50;Unlimited, 7 Days=30",,,',
      "kpn-topup,KPN Top-up,topup,KPN,NL,,,EUR,mobile,Airtime.,Credited in minutes.,phone_number,+316,,,,5,150,0.01",
    ].join("\n");
    const { valid, rejected } = validateCatalogRows(parseCatalogFile(csv, "csv"));
    expect(rejected).toEqual([]);
    expect(valid.map((p) => p.slug)).toEqual(["steam-nl", "esim-nordics", "kpn-topup"]);
    expect(valid[0]).toMatchObject({
      categories: ["gaming", "pc"],
      inStock: true,
      popularity: 700,
      packages: [{ value: "20" }, { value: "50" }, { value: "100" }],
    });
    expect(valid[1]).toMatchObject({
      coverage: ["SE", "NO", "DK", "FI"],
      packages: [
        { value: "3GB, 30 Days", faceValue: "11.50" },
        { value: "Unlimited, 7 Days", faceValue: "30" },
      ],
    });
    expect(valid[2]).toMatchObject({ recipientType: "phone_number", phonePrefixes: ["+316"], range: { min: "5", max: "150", step: "0.01" } });
  });

  it("reports each bad row with its number and the fields at fault, keeping the good ones", () => {
    const rows = [
      {
        slug: "Bad Slug",
        name: "X",
        kind: "gift_card",
        brand: "B",
        country: "US",
        currency: "USD",
        description: "d",
        redemptionInstructions: "r",
        packages: [{ value: "10" }],
      },
      {
        slug: "ok-one",
        name: "Okay",
        kind: "gift_card",
        brand: "B",
        country: "US",
        currency: "USD",
        description: "d",
        redemptionInstructions: "r",
        packages: [{ value: "10" }],
      },
      {
        slug: "wrong-country",
        name: "Wrong",
        kind: "gift_card",
        brand: "B",
        country: "XQ",
        currency: "USD",
        description: "d",
        redemptionInstructions: "r",
        packages: [{ value: "10" }],
      },
      {
        slug: "no-rate",
        name: "No rate",
        kind: "gift_card",
        brand: "B",
        country: "US",
        currency: "ABC",
        description: "d",
        redemptionInstructions: "r",
        packages: [{ value: "10" }],
      },
      {
        slug: "yen-cents",
        name: "Yen",
        kind: "gift_card",
        brand: "B",
        country: "JP",
        currency: "JPY",
        description: "d",
        redemptionInstructions: "r",
        packages: [{ value: "10.5" }],
      },
      {
        slug: "dup-pkg",
        name: "Dup",
        kind: "gift_card",
        brand: "B",
        country: "US",
        currency: "USD",
        description: "d",
        redemptionInstructions: "r",
        packages: [{ value: "10" }, { value: "10" }],
      },
      { slug: "no-packages", name: "None", kind: "gift_card", brand: "B", country: "US", currency: "USD", description: "d", redemptionInstructions: "r" },
      {
        slug: "topup-no-phone",
        name: "Topup",
        kind: "topup",
        brand: "B",
        country: "US",
        currency: "USD",
        description: "d",
        redemptionInstructions: "r",
        packages: [{ value: "10" }],
      },
      {
        slug: "ok-one",
        name: "Again",
        kind: "gift_card",
        brand: "B",
        country: "US",
        currency: "USD",
        description: "d",
        redemptionInstructions: "r",
        packages: [{ value: "10" }],
      },
      {
        slug: "bad-value",
        name: "Amp",
        kind: "gift_card",
        brand: "B",
        country: "US",
        currency: "USD",
        description: "d",
        redemptionInstructions: "r",
        packages: [{ value: "a<&>b", faceValue: "5" }],
      },
      "not an object",
    ];
    const { valid, rejected } = validateCatalogRows(rows);
    expect(valid.map((p) => p.slug)).toEqual(["ok-one"]);
    const byRow = Object.fromEntries(rejected.map((r) => [r.row, r.errors.join(" | ")]));
    expect(Object.keys(byRow).map(Number)).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(byRow[1]).toMatch(/^slug: must be lower-case/);
    expect(byRow[3]).toMatch(/country: "XQ" is not an ISO 3166-1 alpha-2/);
    expect(byRow[4]).toMatch(/currency: /);
    expect(byRow[5]).toMatch(/packages\.0\.value: face value "10.5" is not a positive amount in JPY/);
    expect(byRow[6]).toMatch(/packages\.1\.value: duplicate package "10"/);
    expect(byRow[7]).toMatch(/packages: give at least one package or a range/);
    expect(byRow[8]).toMatch(/recipientType: a top-up needs recipientType phone_number/);
    expect(byRow[9]).toMatch(/appears again \(first in row 2\)/);
    expect(byRow[10]).toMatch(/packages\.0\.value: must not contain/);
    expect(rejected.find((r) => r.row === 3)?.slug).toBe("wrong-country");
  });

  it("refuses files that are not a catalog at all", () => {
    expect(() => parseCatalogFile("{nope", "json")).toThrow(ImportFormatError);
    expect(() => parseCatalogFile('{"items": []}', "json")).toThrow(/array of products/);
    expect(parseCatalogFile('{"products": [{"slug": "a"}]}', "json")).toHaveLength(1);
    expect(() => parseCatalogFile("slug,colour\na,red\n", "csv")).toThrow(/Unknown CSV column\(s\): colour/);
    expect(() => parseCatalogFile('slug,name\n"unterminated,x\n', "csv")).toThrow(ImportFormatError);
  });
});
