/** A person key stays within KV's 2 KB key size, however long the address or email it names. */
import assert from "node:assert/strict";
import { PERSON_KEY_CHARS, personKeys } from "../../server/drops/record.ts";
import { keys } from "../../server/kv/keys.ts";

const mailbox = (email: string) => email.toLowerCase();

function keyBytes(dropId: string, person: string): number {
  // Deno KV's key encoding: each string part's UTF-8 bytes with a few bytes of framing.
  return keys.dropPerson(dropId, person).reduce(
    (n, part) => n + new TextEncoder().encode(String(part)).length + 2,
    0,
  );
}

Deno.test("a person key keeps at most 400 characters of an address or email", () => {
  const long = personKeys({
    userId: null,
    email: `${"𝐀".repeat(3000)}@example.com`,
    address: { street: "𝐀".repeat(5000), apartment: "", zipCode: "12345", country: "US" },
    network: "203.0.113.0",
  }, mailbox);
  const dropId = "d".repeat(64);
  for (const key of long) assert.ok(keyBytes(dropId, key) < 2048, `${key.length} chars`);
  const address = long.find((k) => k.startsWith("address:"))!;
  assert.equal([...address.slice("address:".length)].length, PERSON_KEY_CHARS);
  // Addresses the shop's own forms allow are kept whole: two flats of one building stay two.
  const flat = (apartment: string) =>
    personKeys({
      userId: null,
      email: null,
      address: { street: "12 Main St.", apartment, zipCode: "12345", country: "US" },
      network: "203.0.113.0",
    }, mailbox).find((k) => k.startsWith("address:"));
  assert.notEqual(flat("1A"), flat("1B"));
  assert.equal(flat("1A"), "address:US|12345|12mainst1a");
});
