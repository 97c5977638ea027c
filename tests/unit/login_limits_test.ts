/**
 * What the sign-in limits allow an attacker with many addresses (server/accounts/login_limits.ts),
 * counted on the limits themselves (an in-memory KV, the injected clock, no password hashing), so
 * a thousand addresses cost milliseconds. The API tests replay the same storms over real sockets.
 */
import assert from "node:assert/strict";
import {
  beginAdminAttempt,
  beginLoginAttempt,
  type Caller,
} from "../../server/accounts/login_limits.ts";
import { rememberDevice } from "../../server/accounts/known_devices.ts";
import { clientBlock, clientNetwork } from "../../server/net/client_network.ts";
import { LimitReached } from "../../server/errors.ts";
import { fixedClock } from "../helpers/test_app.ts";

const ACCOUNT = "victim@example.com";

/** The caller at `address` (as the client middleware works it out), with a device token if any. */
function at(address: string, device?: string): Caller {
  return { client: clientNetwork(address, 64), block: clientBlock(address, 64), device };
}

/** Whether an attempt was let through to compare its password (a wrong one: never succeeded). */
async function compared(attempt: Promise<unknown>): Promise<boolean> {
  try {
    await attempt;
    return true;
  } catch (err) {
    if (err instanceof LimitReached) return false;
    throw err;
  }
}

/** Address `i` of 1,000, each in a /24 of its own. */
function spread(i: number): string {
  return `10.${Math.floor(i / 250)}.${i % 250}.1`;
}

Deno.test("1,000 addresses in 1,000 networks against one account: 50 + 100 fresh + 1 slowed are compared", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const device = await rememberDevice(kv, clock, ACCOUNT, undefined);
  let count = 0;
  for (let i = 0; i < 1000; i++) {
    if (await compared(beginLoginAttempt(kv, clock, ACCOUNT, at(spread(i))))) count++;
  }
  assert.equal(count, 151);
  // Every address now has a failure or has met the spent allowance; a second round gets nothing.
  for (let i = 0; i < 1000; i += 50) {
    assert.equal(await compared(beginLoginAttempt(kv, clock, ACCOUNT, at(spread(i)))), false);
  }
  // The rightful shopper's own device is still let through, at once, from any address.
  assert.ok(await compared(beginLoginAttempt(kv, clock, ACCOUNT, at(spread(7), device))));
  assert.ok(await compared(beginLoginAttempt(kv, clock, ACCOUNT, at("192.0.2.1", device))));
});

Deno.test("one IPv6 /48 (1,000 of its /64s) against one account: 50 + 3 fresh + 1 slowed", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  let count = 0;
  for (let i = 0; i < 1000; i++) {
    const address = `2001:db8:77:${i.toString(16)}::1`;
    if (await compared(beginLoginAttempt(kv, clock, ACCOUNT, at(address)))) count++;
  }
  assert.equal(count, 54);
  // A rightful shopper in another network, who has not failed, is compared at once.
  assert.ok(await compared(beginLoginAttempt(kv, clock, ACCOUNT, at("2001:db8:99:1::5"))));
});

Deno.test("past the ceiling, parallel attempts from one fresh client: one is compared", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  for (let i = 0; i < 50; i++) {
    assert.ok(await compared(beginLoginAttempt(kv, clock, ACCOUNT, at(spread(i)))));
  }
  const results = await Promise.all(
    Array.from(
      { length: 8 },
      () => compared(beginLoginAttempt(kv, clock, ACCOUNT, at("192.0.2.9"))),
    ),
  );
  // One as a fresh client, and at most the one slowed slot besides.
  assert.equal(results.filter(Boolean).length, 2);
});

Deno.test("a client refused because of others keeps its chance: no 'wait 15 minutes' later", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  // The attacker spends the ceiling and the fresh allowance of the rightful user's own /24.
  for (let i = 1; i <= 60; i++) {
    await compared(beginLoginAttempt(kv, clock, ACCOUNT, at(`10.0.${i}.1`)));
    await compared(beginLoginAttempt(kv, clock, ACCOUNT, at(`198.51.100.${i}`)));
  }
  const rightful = at("198.51.100.200");
  // Refused ten times over (the slowed slot is the attacker's within these 5 seconds)...
  for (let i = 0; i < 10; i++) {
    assert.equal(await compared(beginLoginAttempt(kv, clock, ACCOUNT, rightful)), false);
  }
  // ...and once the slot is free, still let through: the refusals were not counted as failures.
  clock.advance(5_000);
  const attempt = await beginLoginAttempt(kv, clock, ACCOUNT, rightful);
  await attempt.succeeded();
});

Deno.test("the admin: a rotating-address storm leaves a fresh address and the owner's device their try", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  const device = await rememberDevice(kv, clock, "admin", undefined);
  let count = 0;
  for (let i = 0; i < 300; i++) {
    if (
      await compared(beginAdminAttempt(kv, clock, at(`10.2.${i % 250}.${1 + Math.floor(i / 250)}`)))
    ) count++;
  }
  // 50 under the ceiling, 100 fresh networks (the cap), then 1 slowed.
  assert.equal(count, 151);
  assert.ok(await compared(beginAdminAttempt(kv, clock, at("10.2.0.1", device))));
  // A device known for another account is no key to this one.
  const shopperDevice = await rememberDevice(kv, clock, ACCOUNT, undefined);
  assert.equal(await compared(beginAdminAttempt(kv, clock, at("10.2.0.1", shopperDevice))), false);
});

Deno.test("a block's 200 count every sign-in, right ones and known devices too (each costs a hash)", async () => {
  await using kv = await Deno.openKv(":memory:");
  const clock = fixedClock();
  // One IPv6 /48 signing in rightly to its own accounts, from a new /64 each time.
  for (let i = 0; i < 200; i++) {
    const attempt = await beginLoginAttempt(
      kv,
      clock,
      `own${i}@example.com`,
      at(`2001:db8:5:${i.toString(16)}::1`),
    );
    await attempt.succeeded();
  }
  const device = await rememberDevice(kv, clock, "own0@example.com", undefined);
  assert.equal(
    await compared(
      beginLoginAttempt(kv, clock, "own0@example.com", at("2001:db8:5:ff00::1", device)),
    ),
    false,
  );
  assert.equal(
    await compared(beginLoginAttempt(kv, clock, "own1@example.com", at("2001:db8:5:ff01::1"))),
    false,
  );
  // Another /48 is untouched.
  assert.ok(await compared(beginLoginAttempt(kv, clock, "own1@example.com", at("2001:db8:6::1"))));
});
