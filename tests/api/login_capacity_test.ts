/**
 * Password hashing capacity through the app (server/password_gate.ts): past the hashes running and
 * the short queue behind them, a sign-in or sign-up is answered 503 with Retry-After at once.
 *
 * The test takes the shop's own gate's permits and all but a few of its queue places with tasks it
 * holds, so exactly which attempts wait and which are refused follows from the gate's sizes, not
 * from how fast this machine hashes. Each attempt comes from its own address for its own email, so
 * the sign-in limits (login_limits.ts) stay out of the way.
 */
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/test_app.ts";
import { BUSY_MESSAGE, passwordGate } from "../../server/password_gate.ts";

/** Queue places left to the requests; the rest of the gate is held by the test. */
const FREE_PLACES = 2;
/** Concurrent wrong sign-ins: far more than the places left. */
const ATTEMPTS = 20;

/**
 * Holds every permit of the shop's gate and all but `free` queue places until `release` is
 * called. Answers once the held tasks run or wait.
 */
async function holdGate(free: number) {
  const done = Promise.withResolvers<void>();
  const started: Promise<void>[] = [];
  const held: Promise<void>[] = [];
  for (let i = 0; i < passwordGate.permits + passwordGate.queue - free; i++) {
    const start = Promise.withResolvers<void>();
    if (i < passwordGate.permits) started.push(start.promise);
    held.push(passwordGate.run(() => {
      start.resolve();
      return done.promise;
    }));
  }
  await Promise.all(started);
  assert.deepEqual(passwordGate.load(), {
    running: passwordGate.permits,
    waiting: passwordGate.queue - free,
  });
  return {
    async release() {
      done.resolve();
      await Promise.all(held);
    },
  };
}

function login(t: TestApp, i: number) {
  return t.request("/auth/login", {
    method: "POST",
    body: { email: `burst${i}@example.com`, password: `wrong-password-${i}` },
    client: `127.0.0.${i + 1}`,
  });
}

Deno.test("a burst of sign-ins past the hashing queue: 503 with Retry-After, the rest 401, no 500", async () => {
  await using t = await createTestApp();
  const gate = await holdGate(FREE_PLACES);
  // The refused answer at once; the waiting ones only after the held hashes end.
  const refusedAll = Promise.withResolvers<void>();
  let answered = 0;
  const answers = Array.from({ length: ATTEMPTS }, (_, i) =>
    login(t, i).then((res) => {
      if (++answered === ATTEMPTS - FREE_PLACES) refusedAll.resolve();
      return res;
    }));
  await refusedAll.promise;
  assert.equal(passwordGate.load().waiting, passwordGate.queue, "the free places are taken");
  await gate.release();
  const results = await Promise.all(answers);

  const statuses: Record<number, number> = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  assert.deepEqual(statuses, { 401: FREE_PLACES, 503: ATTEMPTS - FREE_PLACES });
  for (const busy of results.filter((r) => r.status === 503)) {
    assert.deepEqual(busy.json, { error: BUSY_MESSAGE });
    const wait = Number(busy.headers.get("retry-after"));
    assert.ok(Number.isInteger(wait) && wait >= 1 && wait <= 10, `Retry-After ${wait}`);
  }
  for (const wrong of results.filter((r) => r.status === 401)) {
    assert.match(wrong.json.error, /Invalid email or password/);
  }
  assert.equal(t.logs.filter((l) => l.level === "error").length, 0);
  assert.deepEqual(passwordGate.load(), { running: 0, waiting: 0 });
});

Deno.test("a sign-up meeting a full hashing queue is refused with 503 and creates nothing", async () => {
  await using t = await createTestApp();
  const account = { email: "late@example.com", password: "A-long-Password1" };
  const gate = await holdGate(0);
  const busy = await t.request("/auth/register", {
    method: "POST",
    body: account,
    client: "10.1.1.1",
  });
  await gate.release();
  assert.equal(busy.status, 503, busy.text);
  assert.equal(busy.json.error, BUSY_MESSAGE);
  assert.ok(Number(busy.headers.get("retry-after")) >= 1);

  // Nothing was kept: the same sign-up goes through once there is room, then signs in.
  const created = await t.request("/auth/register", {
    method: "POST",
    body: account,
    client: "10.1.1.1",
  });
  assert.equal(created.status, 201, created.text);
  const signedIn = await t.request("/auth/login", {
    method: "POST",
    body: account,
    client: "10.1.1.1",
  });
  assert.equal(signedIn.status, 200, signedIn.text);
});
