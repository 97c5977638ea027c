/**
 * A session's idle renewal never writes back a session that was ended meanwhile: the request that
 * renews read the session just before another request (a sign-out, the owner ending it, a removed
 * member's clean-up) deleted it.
 */
import assert from "node:assert/strict";
import { createSession, type SessionKind, touchSession } from "../../server/accounts/sessions.ts";
import { sha256Hex } from "../../server/crypto.ts";
import { fixedClock } from "../helpers/test_app.ts";

const KIND: SessionKind = {
  key: (hash) => ["test_sessions", hash],
  idleMs: 60 * 60_000,
  absoluteMs: 12 * 60 * 60_000,
};

/** `kv`, but the session is deleted right after the renewing request has read it. */
function endedAfterRead(kv: Deno.Kv, key: Deno.KvKey): Deno.Kv {
  return new Proxy(kv, {
    get(target, name) {
      if (name === "get") {
        return async (k: Deno.KvKey) => {
          const entry = await target.get(k);
          if (JSON.stringify(k) === JSON.stringify(key)) await target.delete(key);
          return entry;
        };
      }
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

Deno.test("a renewal racing the session's end does not bring the session back", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const token = await createSession(kv, clock, KIND, { accountId: "m1" });
  const key = KIND.key(await sha256Hex(token));
  // Past a minute unused, the request renews the idle timer: a write after its read.
  clock.advance(2 * 60_000);
  await touchSession(endedAfterRead(kv, key), clock, KIND, token);
  assert.equal((await kv.get(key)).value, null, "the ended session stays ended");
  assert.equal(await touchSession(kv, clock, KIND, token), null);
});

Deno.test("a renewal with nothing racing it keeps the session going", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const token = await createSession(kv, clock, KIND);
  clock.advance(50 * 60_000);
  assert.ok(await touchSession(kv, clock, KIND, token));
  clock.advance(50 * 60_000);
  assert.ok(await touchSession(kv, clock, KIND, token), "renewed: 100 minutes, idle only 50");
});
