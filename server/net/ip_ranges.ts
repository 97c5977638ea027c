/**
 * IP addresses and ranges (CIDR), for deciding which connections are our own reverse proxies.
 *
 * Every address is held as a 128-bit number in IPv6 space, IPv4 ones as their IPv4-mapped form
 * (`::ffff:a.b.c.d`). So `1.2.3.4` and `::ffff:1.2.3.4` are one address, which is what a
 * dual-stack socket reports for an IPv4 client, and one client keeps one rate-limit key.
 */

/** A parsed list of addresses and ranges. */
export interface IpRanges {
  /** True when `address` is a valid IP address inside one of the ranges. */
  contains(address: string): boolean;
  /** The ranges in canonical CIDR form, for logs and tests. */
  readonly entries: readonly string[];
}

interface Range {
  base: bigint;
  mask: bigint;
}

const ALL_BITS = (1n << 128n) - 1n;
const MAPPED_PREFIX = 0xffffn << 32n;

/**
 * Parses addresses and CIDRs separated by commas or white space (`10.0.0.0/8, ::1`). Throws an
 * Error naming the first bad entry.
 */
export function parseIpRanges(list: string | readonly string[]): IpRanges {
  const texts = typeof list === "string" ? list.split(/[\s,]+/) : list.map((t) => t.trim());
  const ranges = texts.filter((t) => t !== "").map(parseRange);
  return {
    contains(address) {
      const value = parseIp(address);
      return value !== null && ranges.some((r) => (value & r.mask) === r.base);
    },
    entries: ranges.map(formatRange),
  };
}

/** Whether `text` is one IP address (IPv4 dotted quad or IPv6, no port, brackets or zone). */
export function isIpAddress(text: string): boolean {
  return parseIp(text) !== null;
}

/**
 * `text` as one spelling per address (IPv4-mapped as IPv4, IPv6 lower-case and compressed as RFC
 * 5952 has it), or null when it is not an IP address.
 */
export function canonicalIp(text: string): string | null {
  const value = parseIp(text);
  return value === null ? null : formatIp(value);
}

/**
 * The network of `prefix` bits that `text` is in, as canonical CIDR (`2001:db8:1:2::/64`,
 * `203.0.113.0/24`), counting bits from the address's own family: `v4Bits` for IPv4 (and
 * IPv4-mapped IPv6), `v6Bits` for other IPv6. Null when `text` is not an IP address.
 */
export function networkOf(text: string, v4Bits: number, v6Bits: number): string | null {
  const value = parseIp(text);
  if (value === null) return null;
  const v4 = value >> 32n === 0xffffn;
  const totalBits = v4 ? 96 + v4Bits : v6Bits;
  const mask = totalBits === 0 ? 0n : (ALL_BITS << BigInt(128 - totalBits)) & ALL_BITS;
  return formatRange({ base: value & mask, mask });
}

function parseRange(entry: string): Range {
  const bad = () => new Error(`${JSON.stringify(entry)} is not an IP address or CIDR`);
  const slash = entry.indexOf("/");
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const value = parseIp(address);
  if (value === null) throw bad();
  // A prefix counts from the written family: /8 of an IPv4 address is /104 of its mapped form.
  const width = parseIpv4(address) === null ? 128 : 32;
  let bits = width;
  if (slash !== -1) {
    const prefix = entry.slice(slash + 1);
    if (!/^(0|[1-9][0-9]{0,2})$/.test(prefix) || Number(prefix) > width) throw bad();
    bits = Number(prefix);
  }
  const totalBits = bits + 128 - width;
  const mask = totalBits === 0 ? 0n : (ALL_BITS << BigInt(128 - totalBits)) & ALL_BITS;
  if ((value & mask) !== value) {
    // "10.0.0.5/8" is usually a typo for /32; trusting a whole /8 by mistake would let anyone
    // there pick their own rate-limit key, so it is refused rather than silently widened.
    throw new Error(
      `${JSON.stringify(entry)} has bits set past its /${bits} prefix (did you mean ${
        formatRange({ base: value & mask, mask })
      }?)`,
    );
  }
  return { base: value, mask };
}

/** An address as a 128-bit number (IPv4 mapped into IPv6), or null when it is not one. */
function parseIp(text: string): bigint | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return MAPPED_PREFIX | v4;
  return parseIpv6(text);
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    // Leading zeros are refused: some parsers read "010" as octal, and one spelling is wanted.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string): bigint[] | null => {
    if (half === "") return [];
    const out: bigint[] = [];
    const parts = half.split(":");
    for (const [i, part] of parts.entries()) {
      if (part.includes(".")) {
        // An embedded IPv4 address ends the address and fills two groups.
        const v4 = i === parts.length - 1 ? parseIpv4(part) : null;
        if (v4 === null) return null;
        out.push(v4 >> 16n, v4 & 0xffffn);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) {
        out.push(BigInt(`0x${part}`));
      } else {
        return null;
      }
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (head === null || tail === null) return null;
  // An embedded IPv4 address may only end the whole address.
  if (halves.length === 2 && halves[0].includes(".")) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  let value = 0n;
  for (const g of [...head, ...new Array<bigint>(missing).fill(0n), ...tail]) {
    value = (value << 16n) | g;
  }
  return value;
}

function formatIp(value: bigint): string {
  if (value >> 32n === 0xffffn) {
    return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join(".");
  }
  const groups = Array.from(
    { length: 8 },
    (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn),
  );
  // RFC 5952: compress the longest run of two or more zero groups (the first of equal runs).
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best === -1) return hex.join(":");
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLength).join(":")}`;
}

function formatRange(range: Range): string {
  const ones = range.mask.toString(2).replace(/0+$/, "").length;
  const mapped = range.base >> 32n === 0xffffn && ones >= 96;
  return `${formatIp(range.base)}/${mapped ? ones - 96 : ones}`;
}
