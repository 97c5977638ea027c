/**
 * Who a client is for limits: a network, not a single address. One IPv6 host is normally given a
 * whole /64 and picks addresses in it freely (privacy addresses change every day), so counting each
 * IPv6 address would give one attacker 2^64 identities against every limit; an IPv4 address is
 * scarce enough to be one client. A block (IPv4 /24, IPv6 /48: one site's allocation) groups the
 * clients that one operator usually holds together, for limits on what a whole network may try.
 */
import { canonicalIp, networkOf } from "./ip_ranges.ts";

/** IPv4 clients counted by address; a block is their /24. */
const IPV4_CLIENT_BITS = 32;
const IPV4_BLOCK_BITS = 24;
/** An IPv6 block is a /48, the usual allocation to one site. */
const IPV6_BLOCK_BITS = 48;

/**
 * The client `address` counts as: the IPv4 address itself (IPv4-mapped IPv6 too), or the
 * `ipv6Prefix` network of an IPv6 address (`2001:db8:1:2::/64`; at 128 the address itself).
 * Anything that is not an address (a test's stand-in) is kept as it is.
 */
export function clientNetwork(address: string, ipv6Prefix: number): string {
  const canonical = canonicalIp(address);
  if (canonical === null) return address;
  // A single address keeps its plain spelling, as every key held before did.
  if (ipv6Prefix === 128 || !canonical.includes(":")) return canonical;
  return networkOf(canonical, IPV4_CLIENT_BITS, ipv6Prefix)!;
}

/**
 * The block `address` is in: its IPv4 /24, or its IPv6 /48 (or its client network when
 * `ipv6Prefix` is shorter than that, so a block never splits a client).
 */
export function clientBlock(address: string, ipv6Prefix: number): string {
  return networkOf(address, IPV4_BLOCK_BITS, Math.min(IPV6_BLOCK_BITS, ipv6Prefix)) ?? address;
}
