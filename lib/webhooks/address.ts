import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type { Config } from "@/lib/platform/config";

export type NetworkMode = Config["networkMode"];

/** Where webhooks may not go, by ipaddr.js range name, in words for the refusal. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address",
  private: "a private address",
  reserved: "a reserved address",
  benchmarking: "a benchmarking address",
  amt: "a reserved (AMT) address",
  as112: "a reserved (AS112) address",
  as112v6: "a reserved (AS112) address",
  uniqueLocal: "a unique-local address",
  rfc6145: "an IPv4-translated address",
  rfc6052: "a NAT64 address",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  orchid2: "a reserved (ORCHID) address",
  droneRemoteIdProtocolEntityTags: "a reserved (DRIP) address",
  deprecatedSiteLocal: "a site-local address",
  deprecatedOrchid: "a reserved (ORCHID) address",
  discard: "a discard-only address",
  segmentRouting: "a segment-routing address",
};

const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254"]);
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

/**
 * What kind of address `ip` is: "public" for a public unicast address, else the name of its special range
 * ("loopback", "private", "linkLocal", …; "invalid" when it is no IP address). IPv4-mapped IPv6 addresses are judged
 * as the IPv4 address they carry; IPv6 is public only within global unicast (2000::/3) and outside the special ranges
 * there (6to4, Teredo, documentation, …), since those can lead to IPv4 addresses of any kind.
 */
export function addressRange(ip: string): string {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  // net.isIP accepts only the plain forms; ipaddr.js alone would also take "0x7f.1" and the like.
  if (isIP(bare) === 0) return "invalid";
  const addr = ipaddr.parse(bare);
  if (addr.kind() === "ipv6") {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return addressRange(v6.toIPv4Address().toString());
    const range = v6.range();
    if (range !== "unicast") return range;
    return v6.match(GLOBAL_UNICAST_V6) ? "public" : "reserved";
  }
  const range = (addr as ipaddr.IPv4).range();
  return range === "unicast" ? "public" : range;
}

/**
 * Whether a webhook may be sent to `ip` in this network mode: public unicast addresses always; in devnet mode also
 * loopback (a receiver on this machine). Anything else is refused, saying what the address is ("a private address").
 */
export function checkAddress(ip: string, mode: NetworkMode): { ok: true } | { ok: false; what: string } {
  const range = addressRange(ip);
  if (range === "public") return { ok: true };
  if (range === "loopback" && mode === "devnet") return { ok: true };
  if (range === "invalid") return { ok: false, what: "not an IP address" };
  const bare = ip.replace(/^\[|\]$/g, "").toLowerCase();
  if (METADATA_ADDRESSES.has(bare)) return { ok: false, what: "the cloud metadata address" };
  const words = RANGE_WORDS[range] ?? "not a public address";
  return { ok: false, what: range === "loopback" ? `${words} (allowed in devnet mode only)` : words };
}
