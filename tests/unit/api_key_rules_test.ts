import assert from "node:assert/strict";
import {
  accountOfKey,
  API_KEY_MAX_LIFE_MS,
  type ApiKeyRecord,
  expiryProblem,
  keyIsLive,
  keyRole,
  LAST_USE_EVERY_MS,
  lastUseDue,
  looksLikeApiKey,
} from "../../server/staff/api_key_rules.ts";

const NOW = Date.UTC(2026, 10, 21, 12);

function key(fields: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    id: "k1",
    name: "Script",
    role: "staff",
    hash: "00",
    createdAt: NOW,
    expiresAt: null,
    lastUsedAt: null,
    createdBy: { kind: "owner", id: "owner", name: "Owner" },
    ...fields,
  };
}

Deno.test("an expiry is optional, in the future, and at most a year ahead", () => {
  assert.equal(expiryProblem(undefined, NOW), null);
  assert.equal(expiryProblem(NOW + 1, NOW), null);
  assert.equal(expiryProblem(NOW + API_KEY_MAX_LIFE_MS, NOW), null);
  assert.equal(expiryProblem(NOW, NOW), "expiresAt must be in the future");
  assert.equal(
    expiryProblem(NOW + API_KEY_MAX_LIFE_MS + 1, NOW),
    "expiresAt must be at most a year from now",
  );
});

Deno.test("a key works until its expiry, not at it", () => {
  assert.ok(keyIsLive(key(), NOW + 10 * API_KEY_MAX_LIFE_MS));
  assert.ok(keyIsLive(key({ expiresAt: NOW + 1 }), NOW));
  assert.ok(!keyIsLive(key({ expiresAt: NOW }), NOW));
});

Deno.test("a key's last use is written when never written or a minute old", () => {
  assert.ok(lastUseDue(key(), NOW));
  assert.ok(!lastUseDue(key({ lastUsedAt: NOW - LAST_USE_EVERY_MS + 1 }), NOW));
  assert.ok(lastUseDue(key({ lastUsedAt: NOW - LAST_USE_EVERY_MS }), NOW));
});

Deno.test("only the prefixed spelling is taken for a key", () => {
  assert.ok(looksLikeApiKey("shk_abc"));
  assert.ok(!looksLikeApiKey("test-admin-password-1"));
  assert.ok(!looksLikeApiKey("SHK_abc"));
});

Deno.test("a key acts with its own role, never more than its account's", () => {
  assert.equal(keyRole("owner", "owner"), "owner");
  assert.equal(keyRole("staff", "owner"), "staff");
  assert.equal(keyRole("owner", "staff"), "staff");
  assert.equal(keyRole("staff", "staff"), "staff");
});

Deno.test("a key answers for its maker's account, or the account it was given", () => {
  assert.equal(accountOfKey(key()), "owner");
  const member = { kind: "staff" as const, id: "m1", name: "helper@example.com" };
  assert.equal(accountOfKey(key({ createdBy: member })), "m1");
  const byKey = { kind: "key" as const, id: "k0", name: "Rotator" };
  assert.equal(accountOfKey(key({ createdBy: byKey, account: "m1" })), "m1");
  // Made by a key before keys kept their account: none known.
  assert.equal(accountOfKey(key({ createdBy: byKey })), null);
});
