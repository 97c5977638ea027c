/**
 * The owner schedules drops (POST /api/admin/drops), lists them, reads one live and calls one off;
 * each refusal says why, nothing is half written, and only the owner may.
 */
import assert from "node:assert/strict";
import { switchKey } from "../../shared/bom.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { ITEMS } from "../../shared/catalog/items.ts";
import {
  adminCookie,
  bearer,
  changedKeys,
  createTestApp,
  setStock,
  snapshot,
  TEST_EPOCH,
  type TestApp,
} from "../helpers/test_app.ts";
import { DROP_SWITCH, OPENS_AT, scheduleTestDrop, storedDrop } from "../helpers/drop_room.ts";

const MINUTE = 60_000;

function body(fields: Record<string, unknown> = {}) {
  return {
    target: { kind: "switch", id: DROP_SWITCH.id },
    units: 10,
    opensAt: new Date(OPENS_AT).toISOString(),
    perPersonLimit: 2,
    ...fields,
  };
}

async function schedule(t: TestApp, cookie: string, fields: Record<string, unknown> = {}) {
  return await t.request("/api/admin/drops", {
    method: "POST",
    headers: { Cookie: cookie },
    body: body(fields),
  });
}

Deno.test("scheduling: every refusal says why and writes nothing", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  await setStock(t, switchKey(DROP_SWITCH.id), 40);
  // The first switch no themed pack holds (a pack's switch must be replaced before retiring).
  const retired = SWITCHES[2];
  const patched = await t.request(`/api/admin/catalog/switches/${retired.id}`, {
    method: "PATCH",
    headers: { Cookie: cookie },
    body: { retired: true },
  });
  assert.equal(patched.status, 200, patched.text);
  const cases: [string, Record<string, unknown>, number, RegExp][] = [
    ["no units", { units: 0 }, 400, /units must be at least 1/],
    ["a limit of none", { perPersonLimit: 0 }, 400, /perPersonLimit must be at least 1/],
    ["a hold too short", { holdMinutes: 1 }, 400, /holdMinutes must be at least 2/],
    ["not a date", { opensAt: "tomorrow" }, 400, /opensAt must be an ISO date/],
    ["a kind unknown", { target: { kind: "keyboard", id: 1 } }, 400, /target.kind/],
    ["in the past", { opensAt: new Date(TEST_EPOCH - MINUTE).toISOString() }, 400, /a minute/],
    ["too soon", { opensAt: new Date(TEST_EPOCH + 30_000).toISOString() }, 400, /a minute/],
    [
      "years ahead",
      { opensAt: new Date(TEST_EPOCH + 400 * 24 * 60 * MINUTE).toISOString() },
      400,
      /within a year/,
    ],
    ["no such switch", { target: { kind: "switch", id: 99_999 } }, 404, /No switch with id/],
    ["no such pack", { target: { kind: "pack", id: 99_999 } }, 404, /No pack with id/],
    ["a retired switch", { target: { kind: "switch", id: retired.id } }, 409, /retired/],
    [
      "a pack's product as an item",
      { target: { kind: "item", id: PACKS[0].idWithKeycaps } },
      409,
      /is a pack: schedule the pack/,
    ],
    ["more than the stock makes", { units: 41 }, 409, /can make only 40 of/],
  ];
  const before = await snapshot(t.kv, ["rate_limits"]);
  for (const [name, fields, status, message] of cases) {
    const res = await schedule(t, cookie, fields);
    assert.equal(res.status, status, `${name}: ${res.text}`);
    assert.match(res.json.error, message, name);
  }
  assert.deepEqual(changedKeys(before, await snapshot(t.kv, ["rate_limits"])), []);
  const short = await schedule(t, cookie, { units: 41 });
  assert.equal(short.json.canMake, 40, "the refusal names how many can be made");
});

Deno.test("scheduling: one drop per target at a time, written with its audit entry; calling it off frees the target", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const id = await scheduleTestDrop(t);
  const again = await schedule(t, cookie);
  assert.equal(again.status, 409, again.text);
  assert.match(again.json.error, /already has a drop scheduled or running/);
  const audit = await t.request("/api/admin/audit?kind=drops", { headers: { Cookie: cookie } });
  assert.equal(audit.status, 200, audit.text);
  const entries = audit.json;
  assert.deepEqual(entries.map((e: { action: string }) => e.action), ["drop.scheduled"]);
  const forPage = await t.request(`/api/drops/for/switch/${DROP_SWITCH.id}`);
  assert.equal(forPage.status, 200, forPage.text);
  assert.equal(forPage.json.phase, "scheduled");
  assert.equal(forPage.json.units, 10);
  assert.equal(forPage.json.opensAt, new Date(OPENS_AT).toISOString());
  assert.equal(forPage.json.serverTime, new Date(TEST_EPOCH).toISOString());

  // A second later, so the log's newest-first order does not fall to the entries' random ids.
  t.clock.advance(1000);
  const off = await t.request(`/api/admin/drops/${id}`, {
    method: "DELETE",
    headers: { Cookie: cookie },
  });
  assert.equal(off.status, 200, off.text);
  assert.equal(off.json.phase, "cancelled");
  assert.equal((await storedDrop(t, id)).cancelledAt, TEST_EPOCH + 1000);
  const twice = await t.request(`/api/admin/drops/${id}`, {
    method: "DELETE",
    headers: { Cookie: cookie },
  });
  assert.equal(twice.status, 409);
  assert.match(twice.json.error, /already called off/);
  // No drop is an ordinary answer, not an error: product pages ask it on every visit.
  const none = await t.request(`/api/drops/for/switch/${DROP_SWITCH.id}`);
  assert.equal(none.status, 200, none.text);
  assert.equal(none.json, null);
  const after = await t.request("/api/admin/audit?kind=drops", { headers: { Cookie: cookie } });
  assert.deepEqual(
    after.json.map((e: { action: string }) => e.action),
    ["drop.cancelled", "drop.scheduled"],
  );
  const next = await schedule(t, cookie, { units: 5 });
  assert.equal(next.status, 201, "a new drop for the target once the last was called off");
  const missing = await t.request("/api/admin/drops/no-such-drop", {
    method: "DELETE",
    headers: { Cookie: cookie },
  });
  assert.equal(missing.status, 404);
});

Deno.test("scheduling: packs by pack id, items by product id; the list is newest first", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const sw = await scheduleTestDrop(t);
  t.clock.advance(1000);
  // A pack without the dropped switch: a pack holding it would be part of two drops.
  const packed = PACKS.find((p) => !p.switchIds.includes(DROP_SWITCH.id))!;
  const pack = await schedule(t, cookie, { target: { kind: "pack", id: packed.id }, units: 3 });
  assert.equal(pack.status, 201, pack.text);
  t.clock.advance(1000);
  const item = await schedule(t, cookie, {
    target: { kind: "item", id: ITEMS[0].id },
    units: 2,
    holdMinutes: 5,
    signedInOnly: true,
  });
  assert.equal(item.status, 201, item.text);
  const list = await t.request("/api/admin/drops", { headers: { Cookie: cookie } });
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(list.json.map((d: { id: string }) => d.id), [item.json.id, pack.json.id, sw]);
  assert.equal(list.json[0].name, ITEMS[0].name);
  assert.equal(list.json[0].holdMinutes, 5);
  assert.equal(list.json[0].signedInOnly, true);
  assert.equal(list.json[1].name, packed.title);
  assert.equal(list.json[2].holdMinutes, 10, "the default hold");
  const stored = await storedDrop(t, pack.json.id);
  assert.deepEqual(stored.productIds, [packed.id, packed.idWithKeycaps]);
  const packPage = await t.request(`/api/drops/for/pack/${packed.id}`);
  assert.equal(packPage.json.id, pack.json.id);
  const noDrop = await t.request(`/api/drops/for/item/${ITEMS[1].id}`);
  assert.equal(noDrop.status, 200, noDrop.text);
  assert.equal(noDrop.json, null);
  assert.equal((await t.request("/api/drops/for/keyboard/1")).status, 400);
});

Deno.test("scheduling: two drops that would share a product are refused with the product named, whichever comes first", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const starter = PACKS[0];
  assert.ok(starter.switchIds.includes(DROP_SWITCH.id));
  for (const id of starter.switchIds) await setStock(t, switchKey(id), 100);
  const switchDrop = await scheduleTestDrop(t);
  const before = await snapshot(t.kv);
  // The Starter Pack holds the dropped switch: its line would need a place in both rooms.
  const pack = await schedule(t, cookie, { target: { kind: "pack", id: starter.id }, units: 2 });
  assert.equal(pack.status, 409, pack.text);
  assert.match(pack.json.error, /^Starter Pack would be part of two drops, Starter Pack and /);
  assert.match(pack.json.error, /call that drop off first/);
  assert.equal(pack.json.dropId, switchDrop);
  // Another switch of the same pack: the pack would hold both drops' switches.
  const other = starter.switchIds.find((id) => id !== DROP_SWITCH.id)!;
  const second = await schedule(t, cookie, { target: { kind: "switch", id: other } });
  assert.equal(second.status, 409, second.text);
  assert.match(second.json.error, /^Starter Pack would be part of two drops/);
  assert.deepEqual(changedKeys(before, await snapshot(t.kv)), [], "nothing written");
  // A switch no pack holds shares nothing: its drop is scheduled beside the first.
  const lone = SWITCHES.find((s) => !PACKS.some((p) => p.switchIds.includes(s.id)))!;
  await setStock(t, switchKey(lone.id), 100);
  const beside = await schedule(t, cookie, { target: { kind: "switch", id: lone.id } });
  assert.equal(beside.status, 201, beside.text);
  // Once the switch's drop is called off, the pack's drop is scheduled.
  const off = await t.request(`/api/admin/drops/${switchDrop}`, {
    method: "DELETE",
    headers: { Cookie: cookie },
  });
  assert.equal(off.status, 200, off.text);
  const after = await schedule(t, cookie, { target: { kind: "pack", id: starter.id }, units: 2 });
  assert.equal(after.status, 201, after.text);
  // And now the switch's drop is the one refused.
  const back = await schedule(t, cookie);
  assert.equal(back.status, 409, back.text);
  assert.match(back.json.error, /^Starter Pack would be part of two drops/);
});

Deno.test("scheduling: two drops sharing a product sent at once are never both scheduled", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const starter = PACKS[0];
  for (const id of starter.switchIds) await setStock(t, switchKey(id), 100);
  const answers = await Promise.all([
    schedule(t, cookie),
    schedule(t, cookie, { target: { kind: "pack", id: starter.id }, units: 2 }),
  ]);
  assert.deepEqual(
    answers.map((a) => a.status).sort(),
    [201, 409],
    answers.map((a) => a.text).join(),
  );
  const list = await t.request("/api/admin/drops", { headers: { Cookie: cookie } });
  assert.equal(list.json.length, 1);
  // Drops sharing nothing, sent at once, are both scheduled (the loser of the write reads again).
  const apart = PACKS.filter((p) => !p.switchIds.includes(DROP_SWITCH.id)).slice(0, 3);
  for (const pack of apart) for (const id of pack.switchIds) await setStock(t, switchKey(id), 100);
  const both = await Promise.all(
    apart.map((pack) => schedule(t, cookie, { target: { kind: "pack", id: pack.id }, units: 1 })),
  );
  assert.deepEqual(both.map((a) => a.status), [201, 201, 201], both.map((a) => a.text).join());
});

Deno.test("drops' admin routes are the owner's: a staff key is refused each with a sentence", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const id = await scheduleTestDrop(t);
  const made = await t.request("/api/admin/api-keys", {
    method: "POST",
    body: { name: "staff script", role: "staff" },
    headers: { Cookie: cookie },
  });
  assert.equal(made.status, 201, made.text);
  const staff = bearer(made.json.key);
  const calls: [string, string, unknown?][] = [
    ["GET", "/api/admin/drops"],
    ["POST", "/api/admin/drops", body({ target: { kind: "pack", id: PACKS[0].id } })],
    ["GET", `/api/admin/drops/${id}`],
    ["DELETE", `/api/admin/drops/${id}`],
  ];
  for (const [method, path, sent] of calls) {
    const res = await t.request(path, { method, headers: staff, body: sent });
    assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
    assert.match(res.json.error, /^Only the owner can/);
    const guest = await t.request(path, { method, body: sent });
    assert.equal(guest.status, 401, `${method} ${path} without credentials`);
  }
  assert.equal((await storedDrop(t, id)).cancelledAt, null);
});
