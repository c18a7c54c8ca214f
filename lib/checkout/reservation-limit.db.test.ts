import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getProduct } from "@/lib/catalog";
import type { Database } from "@/lib/platform/db";
import { openTestDatabase, testDriver, withTestCatalog } from "@/test/db";
import { importStock } from "@/lib/catalog/stock";
import { DomainError } from "@/lib/platform/errors";
import { createInvoice, createInvoiceBody } from "./";
import {
  MAX_OPEN_RESERVATIONS,
  MAX_OPEN_RESERVATIONS_PER_ADDRESS,
  MAX_OPEN_RESERVATIONS_PER_ADDRESS_PACKAGE,
  MAX_OPEN_RESERVATIONS_PER_NETWORK,
  MAX_OPEN_RESERVATIONS_PER_NETWORK_PACKAGE,
  MAX_OPEN_RESERVATIONS_PER_PACKAGE,
  networkShare,
} from "./create-invoice";
import { expireInvoices } from "./payment";

let database: Database;
let packages: [string, string, string];
/** Codes stocked of each package: the first two hold a network's bound per package as its share, the third less. */
const STOCK = [4 * MAX_OPEN_RESERVATIONS_PER_NETWORK_PACKAGE, 4 * MAX_OPEN_RESERVATIONS_PER_NETWORK_PACKAGE, 80] as const;
beforeAll(async () => {
  database = await openTestDatabase(withTestCatalog);
  const steam = (await getProduct("steam-us", database.db))!;
  packages = [steam.packages[0]!.value, steam.packages[1]!.value, steam.packages[2]!.value];
  for (const [p, value] of packages.entries()) {
    const codes = Array.from({ length: STOCK[p]! }, (_, i) => ({ code: `STEAM-${value}-${i}`, pin: null, expirationDate: null }));
    await importStock(database.db, { productId: "steam-us", packageValue: value, codes, batch: "limits" });
  }
});
afterAll(() => database?.close());

const wallet = (n: number) => ({ chainId: "eip155:8453", address: `0x${n.toString(16).padStart(40, "0")}` });
/** A cart of `codes` items of one package (a cart has no quantity: each item is one code). */
const buy = (payer: number, value: string, codes = 1, now?: Date, clientIp?: string) =>
  createInvoice(
    {
      items: createInvoiceBody.parse({ items: Array.from({ length: codes }, () => ({ product_id: "steam-us", package_value: value })) }).items,
      payer: wallet(payer),
      now,
      clientIp,
    },
    database.db,
  ).then(
    () => "created",
    (err: unknown) => (err instanceof DomainError ? err.code : String(err)),
  );

describe(`reservations of stocked codes by unpaid invoices, on ${testDriver}`, () => {
  it(`hold at most ${MAX_OPEN_RESERVATIONS_PER_PACKAGE} codes of a package and ${MAX_OPEN_RESERVATIONS} in all per wallet; others still buy`, async () => {
    for (let i = 0; i < MAX_OPEN_RESERVATIONS_PER_PACKAGE; i++) expect(await buy(1, packages[0])).toBe("created");
    expect(await buy(1, packages[0])).toBe("reservation_limit");
    for (let i = MAX_OPEN_RESERVATIONS_PER_PACKAGE; i < MAX_OPEN_RESERVATIONS; i++) expect(await buy(1, packages[1])).toBe("created");
    expect(await buy(1, packages[1])).toBe("reservation_limit");
    // Another wallet is not held back by the first one's invoices.
    expect(await buy(2, packages[0], 2)).toBe("created");
  });

  it("cannot be passed by one wallet's carts sent at once", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => buy(3, packages[0])));
    expect(results.filter((r) => r === "created")).toHaveLength(MAX_OPEN_RESERVATIONS_PER_PACKAGE);
    expect(results.filter((r) => r === "reservation_limit")).toHaveLength(8 - MAX_OPEN_RESERVATIONS_PER_PACKAGE);
  });

  it("are given back when the invoices expire, and the wallet may reserve again", async () => {
    const later = new Date(Date.now() + 24 * 60 * 60_000);
    await expireInvoices(database.db, later);
    expect(await buy(1, packages[0], 1, later)).toBe("created");
  });

  it(`hold at most ${MAX_OPEN_RESERVATIONS_PER_ADDRESS_PACKAGE} codes of a package and ${MAX_OPEN_RESERVATIONS_PER_ADDRESS} in all per client address, whatever its wallets`, async () => {
    const later = new Date(Date.now() + 48 * 60 * 60_000);
    await expireInvoices(database.db, later);
    const ip = "203.0.113.9";
    // Free wallets, one address: each wallet stays within its own limits, the address reaches its own.
    let n = 100;
    const fill = async (value: string, codes: number) => {
      for (let left = codes; left > 0; left -= MAX_OPEN_RESERVATIONS_PER_PACKAGE) {
        expect(await buy(n++, value, Math.min(left, MAX_OPEN_RESERVATIONS_PER_PACKAGE), later, ip)).toBe("created");
      }
    };
    await fill(packages[0], MAX_OPEN_RESERVATIONS_PER_ADDRESS_PACKAGE);
    expect(await buy(n++, packages[0], 1, later, ip)).toBe("reservation_limit");
    await fill(packages[1], MAX_OPEN_RESERVATIONS_PER_ADDRESS - MAX_OPEN_RESERVATIONS_PER_ADDRESS_PACKAGE);
    expect(await buy(n++, packages[1], 1, later, ip)).toBe("reservation_limit");
    // Another address (an IPv6 one is counted by its /64), or a client without one (this machine), still buys.
    expect(await buy(n++, packages[1], 1, later, "2001:db8:1:2::1")).toBe("created");
    expect(await buy(n++, packages[1], 1, later, "198.51.100.9")).toBe("created");
    expect(await buy(n++, packages[1], 1, later)).toBe("created");
    // The refusal says which limit, with the documented fields.
    const refused = await createInvoice(
      {
        items: createInvoiceBody.parse({ items: [{ product_id: "steam-us", package_value: packages[1] }] }).items,
        payer: wallet(n++),
        now: later,
        clientIp: ip,
      },
      database.db,
    ).catch((err: unknown) => err);
    expect(refused).toMatchObject({
      code: "reservation_limit",
      message: expect.stringContaining("one client address"),
      details: { limit: MAX_OPEN_RESERVATIONS_PER_ADDRESS, package_limit: MAX_OPEN_RESERVATIONS_PER_ADDRESS_PACKAGE },
    });
    // Given back when the invoices expire.
    const after = new Date(later.getTime() + 24 * 60 * 60_000);
    await expireInvoices(database.db, after);
    expect(await buy(n++, packages[0], 1, after, ip)).toBe("created");
  });

  /** A /64 of the IPv6 /48 2001:db8:48::/48: a holder of the /48 has 65,536 of them. */
  const line = (i: number) => `2001:db8:48:${i.toString(16)}::1`;

  it(`hold at most ${MAX_OPEN_RESERVATIONS_PER_NETWORK_PACKAGE} codes of a package and ${MAX_OPEN_RESERVATIONS_PER_NETWORK} in all per network (an IPv6 /48), whatever its /64s and wallets`, async () => {
    const later = new Date(Date.now() + 72 * 60 * 60_000);
    await expireInvoices(database.db, later);
    // Each cart from a new wallet on a new /64: neither reaches its own limits, the /48 reaches its own.
    let n = 200;
    let i = 0;
    const fill = async (value: string, codes: number) => {
      for (let left = codes; left > 0; left -= MAX_OPEN_RESERVATIONS_PER_PACKAGE) {
        expect(await buy(n++, value, Math.min(left, MAX_OPEN_RESERVATIONS_PER_PACKAGE), later, line(i++))).toBe("created");
      }
    };
    await fill(packages[0], MAX_OPEN_RESERVATIONS_PER_NETWORK_PACKAGE);
    expect(await buy(n++, packages[0], 1, later, line(i++))).toBe("reservation_limit");
    await fill(packages[1], MAX_OPEN_RESERVATIONS_PER_NETWORK - MAX_OPEN_RESERVATIONS_PER_NETWORK_PACKAGE);
    expect(await buy(n++, packages[2], 1, later, line(i++))).toBe("reservation_limit");
    // Another /48 still buys, and so does a client without an address.
    expect(await buy(n++, packages[2], 1, later, "2001:db8:49::1")).toBe("created");
    expect(await buy(n++, packages[0], 1, later)).toBe("created");
    // The refusal says which limit, with the documented fields.
    const refused = await createInvoice(
      {
        items: createInvoiceBody.parse({ items: [{ product_id: "steam-us", package_value: packages[2] }] }).items,
        payer: wallet(n++),
        now: later,
        clientIp: line(i++),
      },
      database.db,
    ).catch((err: unknown) => err);
    expect(refused).toMatchObject({
      code: "reservation_limit",
      message: expect.stringContaining("one network (an IPv6 /48, an IPv4 /24)"),
      details: { limit: MAX_OPEN_RESERVATIONS_PER_NETWORK, package_limit: MAX_OPEN_RESERVATIONS_PER_NETWORK_PACKAGE },
    });
  });

  it("hold at most a share of a package's unsold codes per network (an IPv4 /24), never less than one address may hold", async () => {
    const later = new Date(Date.now() + 96 * 60 * 60_000);
    await expireInvoices(database.db, later);
    // A small stock still sells to one address in full measure; a larger one is shared out.
    expect(networkShare(0)).toBe(MAX_OPEN_RESERVATIONS_PER_ADDRESS_PACKAGE);
    expect(networkShare(1000)).toBe(250);
    const share = networkShare(STOCK[2]);
    expect(share).toBeGreaterThan(MAX_OPEN_RESERVATIONS_PER_ADDRESS_PACKAGE);
    expect(share).toBeLessThan(MAX_OPEN_RESERVATIONS_PER_NETWORK_PACKAGE);
    // Addresses of one /24, each with a new wallet and within its own limits, reach the network's share of the package.
    let n = 300;
    let i = 1;
    for (let held = 0; held < share; held += MAX_OPEN_RESERVATIONS_PER_PACKAGE) {
      expect(await buy(n++, packages[2], Math.min(share - held, MAX_OPEN_RESERVATIONS_PER_PACKAGE), later, `192.0.2.${i++}`)).toBe("created");
    }
    const refused = await createInvoice(
      {
        items: createInvoiceBody.parse({ items: [{ product_id: "steam-us", package_value: packages[2] }] }).items,
        payer: wallet(n++),
        now: later,
        clientIp: `192.0.2.${i++}`,
      },
      database.db,
    ).catch((err: unknown) => err);
    expect(refused).toMatchObject({
      code: "reservation_limit",
      message: expect.stringContaining(`${share} of the ${STOCK[2]} left of steam-us ${packages[2]}`),
      details: { limit: MAX_OPEN_RESERVATIONS_PER_NETWORK, package_limit: share },
    });
    // The network still buys other packages, and another /24 still buys this one.
    expect(await buy(n++, packages[0], 1, later, `192.0.2.${i++}`)).toBe("created");
    expect(await buy(n++, packages[2], 1, later, "192.0.3.1")).toBe("created");
  });

  it("cannot be passed by one network's carts sent at once, each from a /64 and a wallet of its own", async () => {
    const later = new Date(Date.now() + 120 * 60 * 60_000);
    await expireInvoices(database.db, later);
    const carts = 8;
    const results = await Promise.all(Array.from({ length: carts }, (_, c) => buy(400 + c, packages[0], MAX_OPEN_RESERVATIONS_PER_PACKAGE, later, line(c))));
    const passing = MAX_OPEN_RESERVATIONS_PER_NETWORK_PACKAGE / MAX_OPEN_RESERVATIONS_PER_PACKAGE;
    expect(results.filter((r) => r === "created")).toHaveLength(passing);
    expect(results.filter((r) => r === "reservation_limit")).toHaveLength(carts - passing);
  });
});
