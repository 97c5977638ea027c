import assert from "node:assert/strict";
import { canonicalIp, isIpAddress, parseIpRanges } from "../../server/net/ip_ranges.ts";

Deno.test("single IPv4 and IPv6 addresses match only themselves", () => {
  const ranges = parseIpRanges("127.0.0.1, ::1");
  assert.ok(ranges.contains("127.0.0.1"));
  assert.ok(ranges.contains("::1"));
  assert.ok(ranges.contains("0:0:0:0:0:0:0:1"));
  assert.ok(!ranges.contains("127.0.0.2"));
  assert.ok(!ranges.contains("::2"));
  assert.deepEqual(ranges.entries, ["127.0.0.1/32", "::1/128"]);
});

Deno.test("IPv4 CIDRs include both ends and nothing past them", () => {
  const ranges = parseIpRanges("10.0.0.0/8 192.168.1.128/25");
  assert.ok(ranges.contains("10.0.0.0"));
  assert.ok(ranges.contains("10.255.255.255"));
  assert.ok(!ranges.contains("9.255.255.255"));
  assert.ok(!ranges.contains("11.0.0.0"));
  assert.ok(ranges.contains("192.168.1.128"));
  assert.ok(ranges.contains("192.168.1.255"));
  assert.ok(!ranges.contains("192.168.1.127"));
});

Deno.test("prefix edges: /0 is everything of its family's space, /32 and /128 one address", () => {
  const everyV4 = parseIpRanges("0.0.0.0/0");
  assert.ok(everyV4.contains("0.0.0.0"));
  assert.ok(everyV4.contains("255.255.255.255"));
  assert.ok(everyV4.contains("::ffff:8.8.8.8"));
  assert.ok(!everyV4.contains("2001:db8::1"));

  const everything = parseIpRanges("::/0");
  assert.ok(everything.contains("2001:db8::1"));
  assert.ok(everything.contains("8.8.8.8"), "IPv4 addresses are their mapped IPv6 forms");

  const one = parseIpRanges("203.0.113.7/32, 2001:db8::7/128");
  assert.ok(one.contains("203.0.113.7"));
  assert.ok(!one.contains("203.0.113.6"));
  assert.ok(!one.contains("203.0.113.8"));
  assert.ok(one.contains("2001:db8::7"));
  assert.ok(!one.contains("2001:db8::6"));
  assert.ok(!one.contains("2001:db8::8"));
});

Deno.test("IPv6 CIDRs", () => {
  const ranges = parseIpRanges("fd00::/8,2001:DB8:0:0::/32");
  assert.ok(ranges.contains("fd12:3456::1"));
  assert.ok(ranges.contains("fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"));
  assert.ok(!ranges.contains("fc00::1"));
  assert.ok(!ranges.contains("fe00::"));
  assert.ok(ranges.contains("2001:db8:ffff::1"));
  assert.ok(!ranges.contains("2001:db9::"));
  assert.deepEqual(ranges.entries, ["fd00::/8", "2001:db8::/32"]);
});

Deno.test("IPv4-mapped IPv6 addresses and ranges are the IPv4 ones", () => {
  const ranges = parseIpRanges("10.0.0.0/8");
  assert.ok(ranges.contains("::ffff:10.0.0.1"));
  assert.ok(ranges.contains("::FFFF:a00:1"));
  assert.ok(ranges.contains("0:0:0:0:0:ffff:10.1.2.3"));
  assert.ok(!ranges.contains("::ffff:11.0.0.1"));
  // The deprecated IPv4-compatible form is a different address.
  assert.ok(!ranges.contains("::10.0.0.1"));

  const mapped = parseIpRanges("::ffff:10.0.0.1, ::ffff:192.168.0.0/112");
  assert.deepEqual(mapped.entries, ["10.0.0.1/32", "192.168.0.0/16"]);
  assert.ok(mapped.contains("10.0.0.1"));
  assert.ok(mapped.contains("192.168.44.1"));
});

Deno.test("a list may be empty, or split by commas and any white space", () => {
  assert.deepEqual(parseIpRanges("").entries, []);
  assert.deepEqual(parseIpRanges(" , ").entries, []);
  assert.ok(!parseIpRanges("").contains("127.0.0.1"));
  assert.deepEqual(parseIpRanges("1.1.1.1,\n2.2.2.2\t 3.3.3.3 ,4.4.4.4").entries.length, 4);
  assert.deepEqual(parseIpRanges(["1.1.1.1", " ::1 "]).entries, ["1.1.1.1/32", "::1/128"]);
});

Deno.test("a bad entry is refused with an error naming it", () => {
  const bad = [
    "10.0.0.300",
    "10.0.0",
    "10.0.0.0.1",
    "010.0.0.1",
    "10.0.0.0/33",
    "10.0.0.0/",
    "10.0.0.0/08",
    "10.0.0.0/-1",
    "::1/129",
    "fd00::/8/8",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    "12345::",
    "::ffff:1.2.3",
    "::1.2.3.4:5",
    "fe80::1%eth0",
    "[::1]",
    "localhost",
    "1.2.3.4:80",
  ];
  for (const entry of bad) {
    assert.throws(
      () => parseIpRanges(`127.0.0.1, ${entry}`),
      (err: Error) => {
        assert.equal(err.message, `${JSON.stringify(entry)} is not an IP address or CIDR`);
        return true;
      },
      entry,
    );
  }
});

Deno.test("a CIDR with host bits set is refused, with the range it may have meant", () => {
  assert.throws(
    () => parseIpRanges("10.0.0.5/8"),
    /^Error: "10\.0\.0\.5\/8" has bits set past its \/8 prefix \(did you mean 10\.0\.0\.0\/8\?\)$/,
  );
  assert.throws(() => parseIpRanges("fd00::1/8"), /did you mean fd00::\/8\?/);
});

Deno.test("isIpAddress accepts addresses only, not ranges, ports or names", () => {
  for (const ok of ["1.2.3.4", "0.0.0.0", "255.255.255.255", "::", "::1", "2001:db8::1"]) {
    assert.ok(isIpAddress(ok), ok);
  }
  for (const no of ["", " 1.2.3.4", "1.2.3.4/32", "1.2.3.4:80", "[::1]", "unknown", "::g"]) {
    assert.ok(!isIpAddress(no), no);
  }
  assert.ok(!parseIpRanges("0.0.0.0/0").contains("not an address"));
});

Deno.test("canonicalIp gives one spelling per address", () => {
  assert.equal(canonicalIp("::ffff:1.2.3.4"), "1.2.3.4");
  assert.equal(canonicalIp("::FFFF:0102:0304"), "1.2.3.4");
  assert.equal(canonicalIp("2001:DB8:0:0:0:0:0:1"), "2001:db8::1");
  assert.equal(canonicalIp("2001:db8:0:0:1:0:0:1"), "2001:db8::1:0:0:1");
  assert.equal(canonicalIp("2001:db8:0:1:1:1:1:1"), "2001:db8:0:1:1:1:1:1");
  assert.equal(canonicalIp("0:0:0:0:0:0:0:0"), "::");
  assert.equal(canonicalIp("fe80:0000::0001"), "fe80::1");
  assert.equal(canonicalIp("1.2.3.4"), "1.2.3.4");
  assert.equal(canonicalIp("1.2.3.04"), null);
});
