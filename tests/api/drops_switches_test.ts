/**
 * GET /api/drops/switches: the switch drops the configurators show on their cards, in one read
 * for every switch. Scheduled, in the room, open and (for three days) sold out are listed; a
 * called-off drop, another kind's drop and an old sell-out are not; bad paths are 4xx, never 500.
 */
import assert from "node:assert/strict";
import { switchKey } from "../../shared/bom.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { adminCookie, createTestApp, setStock, TEST_EPOCH } from "../helpers/test_app.ts";
import { DROP_SWITCH, OPENS_AT, scheduleTestDrop, setLedger } from "../helpers/drop_room.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** A second switch no themed pack holds, so its drop is the switch's alone. */
const OTHER_SWITCH = SWITCHES.find((s) =>
  s.id !== DROP_SWITCH.id && !PACKS.some((p) => p.switchIds.includes(s.id))
)!;

Deno.test("the configurators' switch drops: every phase listed, soonest first, called off absent", async () => {
  await using t = await createTestApp();
  const empty = await t.request("/api/drops/switches");
  assert.equal(empty.status, 200, empty.text);
  assert.deepEqual(empty.json, [], "no drop: an empty list, not an error");

  const later = await scheduleTestDrop(t, { opensAt: new Date(OPENS_AT + DAY).toISOString() });
  await setStock(t, switchKey(OTHER_SWITCH.id), 100);
  const sooner = await scheduleTestDrop(t, { target: { kind: "switch", id: OTHER_SWITCH.id } });
  // A pack's drop is the pack page's, not the configurators' (a pack holding neither switch: one
  // holding a dropped switch would be part of two drops).
  const pack = PACKS.find((p) => !p.switchIds.includes(DROP_SWITCH.id))!;
  for (const id of pack.switchIds) await setStock(t, switchKey(id), 100);
  const packDrop = await t.request("/api/admin/drops", {
    method: "POST",
    headers: { Cookie: await adminCookie(t) },
    body: {
      target: { kind: "pack", id: pack.id },
      units: 2,
      opensAt: new Date(OPENS_AT).toISOString(),
      perPersonLimit: 1,
    },
  });
  assert.equal(packDrop.status, 201, packDrop.text);

  const listed = await t.request("/api/drops/switches");
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.json.map((d: { id: string }) => d.id), [sooner, later]);
  const first = listed.json[0];
  assert.deepEqual(first.target, { kind: "switch", id: OTHER_SWITCH.id });
  assert.equal(first.phase, "scheduled");
  assert.equal(first.opensAt, new Date(OPENS_AT).toISOString());
  assert.equal(first.serverTime, new Date(TEST_EPOCH).toISOString());
  assert.equal(first.unitsLeft, 10);

  // The room opens two minutes before; then it sells.
  t.clock.set(OPENS_AT - MINUTE);
  assert.equal((await t.request("/api/drops/switches")).json[0].phase, "room");
  t.clock.set(OPENS_AT + 1);
  assert.equal((await t.request("/api/drops/switches")).json[0].phase, "open");

  // Called off: gone from the list at once (the switch sells as usual again).
  const off = await t.request(`/api/admin/drops/${later}`, {
    method: "DELETE",
    headers: { Cookie: await adminCookie(t) },
  });
  assert.equal(off.status, 200, off.text);
  assert.deepEqual((await t.request("/api/drops/switches")).json.map((d: { id: string }) => d.id), [
    sooner,
  ]);

  // Sold out: still said for three days after the opening, then the switch is like any other.
  await setLedger(t, sooner, { holding: 0, sold: 10 });
  const soldOut = (await t.request("/api/drops/switches")).json;
  assert.equal(soldOut.length, 1);
  assert.equal(soldOut[0].phase, "soldOut");
  assert.equal(soldOut[0].unitsLeft, 0);
  t.clock.set(OPENS_AT + 3 * DAY - 1);
  assert.equal((await t.request("/api/drops/switches")).json.length, 1);
  t.clock.set(OPENS_AT + 3 * DAY);
  assert.deepEqual((await t.request("/api/drops/switches")).json, []);
});

Deno.test("the switch drops' read: paths and methods it does not take are 4xx JSON, never 500", async () => {
  await using t = await createTestApp();
  await scheduleTestDrop(t);
  for (
    const [method, path] of [
      ["GET", "/api/drops/switches/1"],
      ["GET", "/api/drops/switches/x"],
      ["POST", "/api/drops/switches"],
      ["DELETE", "/api/drops/switches"],
    ]
  ) {
    const res = await t.request(path, { method });
    assert.ok(res.status >= 400 && res.status < 500, `${method} ${path}: ${res.status}`);
    assert.equal(typeof res.json?.error, "string", `${method} ${path} says why`);
  }
  // A query it does not read changes nothing.
  const odd = await t.request("/api/drops/switches?kind=pack&id=%00");
  assert.equal(odd.status, 200, odd.text);
  assert.equal(odd.json.length, 1);
});
