/**
 * What a configurator says and allows for a switch in a drop: the card's line, whether it can be
 * picked, the refusal's sentence, and which drops get a panel above the list.
 */
import assert from "node:assert/strict";
import type { DropPublicView } from "../../shared/drops.ts";
import {
  DROP_PANELS_SHOWN,
  dropCardNote,
  dropLocks,
  dropRefusal,
  panelDrops,
  placeStateOf,
} from "../../client/features/configurator/switch_drop_rules.ts";

Deno.test("a dropped switch is locked while scheduled or selling, unless this shopper's turn came", () => {
  for (const phase of ["scheduled", "room", "open"] as const) {
    assert.equal(dropLocks(phase, "none"), true, phase);
    assert.equal(dropLocks(phase, "waiting"), true, `${phase}, still waiting`);
    assert.equal(dropLocks(phase, "admitted"), false, `${phase}, admitted`);
  }
  // Sold out or called off, the switch sells as usual again (the cart no longer asks a place).
  assert.equal(dropLocks("soldOut", "none"), false);
  assert.equal(dropLocks("cancelled", "none"), false);
});

Deno.test("a kept place counts as a way in only once admitted", () => {
  assert.equal(placeStateOf("admitted"), "admitted");
  assert.equal(placeStateOf("waiting"), "waiting");
  for (const state of ["expired", "soldOut", "limitReached", null] as const) {
    assert.equal(placeStateOf(state), "none", String(state));
  }
});

Deno.test("the card's line says where the drop stands, with the countdown before it", () => {
  assert.equal(dropCardNote("scheduled", 245, "none"), "Limited drop: opens in 04:05");
  assert.equal(dropCardNote("scheduled", 90_000, "none"), "Limited drop: opens in 1 day 01:00:00");
  assert.equal(dropCardNote("room", 60, "none"), "Limited drop: join the waiting room");
  assert.equal(dropCardNote("open", 0, "none"), "Limited drop: join the waiting room");
  assert.equal(dropCardNote("open", 0, "waiting"), "Limited drop: you are in line");
  assert.equal(dropCardNote("open", 0, "admitted"), "Limited drop: your turn, pick it now");
  assert.equal(dropCardNote("soldOut", 0, "none"), "Sold out in its drop");
});

Deno.test("the refusal names the switch and the way in", () => {
  const before = dropRefusal("Gateron Red", "scheduled", "none");
  assert.match(before, /^Gateron Red is in a limited drop/);
  assert.match(before, /waiting room, which opens 2 minutes before/);
  assert.match(dropRefusal("Gateron Red", "open", "none"), /join the waiting room/);
  assert.match(dropRefusal("Gateron Red", "open", "waiting"), /you are in its line/);
});

Deno.test("panels: the scheduled and selling drops, a few at most", () => {
  const drop = (id: string, phase: DropPublicView["phase"]) => ({ id, phase }) as DropPublicView;
  const drops = [
    drop("a", "soldOut"),
    drop("b", "scheduled"),
    drop("c", "open"),
    drop("d", "room"),
    drop("e", "scheduled"),
  ];
  assert.deepEqual(panelDrops(drops).map((d) => d.id), ["b", "c", "d"]);
  assert.equal(DROP_PANELS_SHOWN, 3);
  assert.deepEqual(panelDrops([drop("a", "soldOut")]), []);
});
