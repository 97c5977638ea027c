import assert from "node:assert/strict";
import { clientBlock, clientNetwork } from "../../server/net/client_network.ts";

Deno.test("IPv4 clients are their address; IPv4-mapped IPv6 is the same IPv4 client", () => {
  assert.equal(clientNetwork("203.0.113.7", 64), "203.0.113.7");
  assert.equal(clientNetwork("::ffff:203.0.113.7", 64), "203.0.113.7");
  assert.equal(clientNetwork("::FFFF:cb00:7107", 64), "203.0.113.7");
  assert.notEqual(clientNetwork("203.0.113.7", 64), clientNetwork("203.0.113.8", 64));
});

Deno.test("IPv6 clients are their /64: two addresses in one /64 are one client, other /64s are not", () => {
  const a = clientNetwork("2001:db8:1:2::1", 64);
  assert.equal(a, "2001:db8:1:2::/64");
  assert.equal(clientNetwork("2001:db8:1:2:ffff:ffff:ffff:ffff", 64), a);
  assert.equal(clientNetwork("2001:DB8:1:2:0:0:0:99", 64), a, "any spelling");
  assert.notEqual(clientNetwork("2001:db8:1:3::1", 64), a);
  assert.notEqual(clientNetwork("2001:db9:1:2::1", 64), a);
});

Deno.test("the IPv6 prefix is configurable: /56 joins more, /128 is each address", () => {
  assert.equal(clientNetwork("2001:db8:1:2ff::1", 56), "2001:db8:1:200::/56");
  assert.equal(clientNetwork("2001:db8:1:2ff::1", 56), clientNetwork("2001:db8:1:200::9", 56));
  assert.equal(clientNetwork("2001:db8::1", 128), "2001:db8::1");
  assert.notEqual(clientNetwork("2001:db8::1", 128), clientNetwork("2001:db8::2", 128));
  assert.equal(clientNetwork("2001:db8:aaaa:bbbb::1", 32), "2001:db8::/32");
});

Deno.test("what is not an address (a test's stand-in) is kept as it is", () => {
  assert.equal(clientNetwork("local", 64), "local");
  assert.equal(clientBlock("local", 64), "local");
});

Deno.test("a client's block: IPv4 by /24, IPv6 by /48 (or the client's prefix when shorter)", () => {
  assert.equal(clientBlock("203.0.113.7", 64), "203.0.113.0/24");
  assert.equal(clientBlock("203.0.113.250", 64), clientBlock("203.0.113.7", 64));
  assert.notEqual(clientBlock("203.0.114.7", 64), clientBlock("203.0.113.7", 64));
  assert.equal(clientBlock("::ffff:203.0.113.7", 64), "203.0.113.0/24");
  assert.equal(clientBlock("2001:db8:1:2::1", 64), "2001:db8:1::/48");
  assert.equal(clientBlock("2001:db8:1:ffff::1", 64), "2001:db8:1::/48");
  assert.notEqual(clientBlock("2001:db8:2::1", 64), clientBlock("2001:db8:1::1", 64));
  assert.equal(clientBlock("2001:db8:1:2::1", 40), "2001:db8::/40");
});
