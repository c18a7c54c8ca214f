import { describe, expect, it } from "vitest";
import { addressRange, checkAddress } from "./address";

describe("addressRange", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["1.1.1.1", "public"],
    ["93.184.216.34", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["2606:4700:4700::1111", "public"],
    ["2a00:1450:4001:80b::200e", "public"],
    ["::ffff:8.8.8.8", "public"],
  ])("%s is public", (ip, range) => {
    expect(addressRange(ip)).toBe(range);
  });

  it.each([
    // IPv4 special ranges
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["169.254.0.1", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.127.255.255", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["192.0.0.8", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["198.51.100.7", "reserved"],
    ["203.0.113.9", "reserved"],
    ["240.0.0.1", "reserved"],
    // IPv6 special ranges
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fe80::1%eth0", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd00:ec2::254", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["2002:7f00:1::1", "6to4"],
    ["2001:0:4136:e378::1", "teredo"],
    ["64:ff9b::a00:1", "rfc6052"],
    ["fec0::1", "deprecatedSiteLocal"],
    // IPv4-mapped IPv6 is judged by the IPv4 address it carries
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "linkLocal"],
    ["::ffff:7f00:1", "loopback"],
    // The deprecated IPv4-compatible form (URLs write [::127.0.0.1] as [::7f00:1]) and other space outside 2000::/3
    ["::7f00:1", "reserved"],
    ["::a00:1", "reserved"],
    ["100::1", "discard"],
    ["3fff::1", "reserved"],
  ])("%s is %s", (ip, range) => {
    expect(addressRange(ip)).toBe(range);
  });

  it("takes IPv6 in brackets, and calls anything else invalid (no shorthand IPv4 forms)", () => {
    expect(addressRange("[::1]")).toBe("loopback");
    for (const s of ["", "localhost", "127.1", "0x7f000001", "2130706433", "017700000001", "1.2.3", "::ffff:999.0.0.1", "example.com"]) {
      expect(addressRange(s)).toBe("invalid");
    }
  });
});

describe("checkAddress", () => {
  it("allows public addresses in every mode", () => {
    for (const mode of ["devnet", "testnet", "mainnet"] as const) {
      expect(checkAddress("8.8.8.8", mode)).toEqual({ ok: true });
      expect(checkAddress("2606:4700:4700::1111", mode)).toEqual({ ok: true });
    }
  });

  it("allows loopback in devnet mode only", () => {
    for (const ip of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      expect(checkAddress(ip, "devnet")).toEqual({ ok: true });
      expect(checkAddress(ip, "testnet")).toEqual({ ok: false, what: "a loopback address (allowed in devnet mode only)" });
      expect(checkAddress(ip, "mainnet").ok).toBe(false);
    }
  });

  it("refuses private, link-local, CGNAT, unique-local and metadata addresses even in devnet mode", () => {
    expect(checkAddress("10.1.2.3", "devnet")).toEqual({ ok: false, what: "a private address" });
    expect(checkAddress("169.254.169.254", "devnet")).toEqual({ ok: false, what: "the cloud metadata address" });
    expect(checkAddress("fd00:ec2::254", "mainnet")).toEqual({ ok: false, what: "the cloud metadata address" });
    expect(checkAddress("100.64.1.1", "mainnet")).toEqual({ ok: false, what: "a carrier-grade NAT address" });
    expect(checkAddress("fd12:3456::1", "mainnet")).toEqual({ ok: false, what: "a unique-local address" });
    expect(checkAddress("0.0.0.0", "devnet")).toEqual({ ok: false, what: "an unspecified address" });
    expect(checkAddress("::ffff:192.168.0.1", "testnet")).toEqual({ ok: false, what: "a private address" });
    expect(checkAddress("nonsense", "devnet")).toEqual({ ok: false, what: "not an IP address" });
  });
});
