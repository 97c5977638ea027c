import assert from "node:assert/strict";
import { guessTargets, readDropIndex, runningDropsOf } from "../../server/drops/line_drops.ts";
import { keys } from "../../server/kv/keys.ts";
import type { DropRecord } from "../../server/drops/record.ts";
import { switchKey } from "../../shared/bom.ts";
import { PACKS } from "../../shared/catalog/packs.ts";

const PACK = PACKS[0];

function drop(over: Partial<DropRecord>): DropRecord {
  return {
    id: "d1",
    target: { kind: "switch", id: 999 },
    name: "A switch",
    productIds: [],
    units: 5,
    opensAt: 0,
    perPersonLimit: 2,
    holdMinutes: 10,
    signedInOnly: false,
    createdAt: 0,
    cancelledAt: null,
    soldOutAt: null,
    ...over,
  };
}

Deno.test("a pack's product is guessed as itself, its pack and its seeded switches", () => {
  const keysOf = guessTargets([{ productId: PACK.idWithKeycaps }]).map((t) => `${t.kind}:${t.id}`);
  assert.ok(keysOf.includes(`pack:${PACK.id}`));
  assert.ok(keysOf.includes(`item:${PACK.idWithKeycaps}`));
  assert.ok(PACK.switchIds.every((id) => keysOf.includes(`switch:${id}`)));
  assert.deepEqual(guessTargets([{ productId: null, switchIds: [7, 8] }]).length, 2);
});

Deno.test("a target the guess missed is read on its own; an over drop does not count", async () => {
  await using kv = await Deno.openKv(":memory:");
  await kv.set(keys.drop("d1"), drop({}));
  await kv.set(keys.dropByTarget("switch:999"), "d1");
  // A pack whose switches the owner changed: the seed's guess does not name switch 999.
  const line = {
    productId: PACK.id,
    bom: new Map([[switchKey(999), 1], [switchKey(PACK.switchIds[0]), 1]]),
    quantity: 2,
  };
  const ahead = readDropIndex(kv, guessTargets([{ productId: PACK.id }]));
  const found = await runningDropsOf(kv, [line], ahead);
  assert.deepEqual(found.map((d) => [d.drop.id, d.units]), [["d1", 2]]);
  await kv.set(keys.dropLedger("d1"), { holding: 0, sold: 5 });
  assert.deepEqual(await runningDropsOf(kv, [line]), [], "sold out: sells as usual");
  await kv.set(keys.dropLedger("d1"), { holding: 0, sold: 0 });
  await kv.set(keys.drop("d1"), drop({ cancelledAt: 1 }));
  assert.deepEqual(await runningDropsOf(kv, [line]), [], "called off");
});
