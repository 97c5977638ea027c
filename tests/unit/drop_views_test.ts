import assert from "node:assert/strict";
import { phaseOf, publicViewOf, shownOnPages } from "../../server/drops/views.ts";
import { holderOf } from "../../server/drops/join.ts";
import type { DropRecord } from "../../server/drops/record.ts";

const OPENS = Date.UTC(2026, 10, 21, 12, 10);
const MINUTE = 60_000;

const DROP: DropRecord = {
  id: "drop-1",
  target: { kind: "pack", id: 1 },
  name: "Starter Pack",
  productIds: [1, 2],
  units: 10,
  opensAt: OPENS,
  perPersonLimit: 2,
  holdMinutes: 10,
  signedInOnly: false,
  createdAt: OPENS - 60 * MINUTE,
  cancelledAt: null,
  soldOutAt: null,
};

Deno.test("a drop's phase: scheduled, the room two minutes before, open, sold out, called off", () => {
  const none = { holding: 0, sold: 0 };
  assert.equal(phaseOf(DROP, none, OPENS - 2 * MINUTE - 1), "scheduled");
  assert.equal(phaseOf(DROP, none, OPENS - 2 * MINUTE), "room");
  assert.equal(phaseOf(DROP, none, OPENS), "open");
  assert.equal(phaseOf(DROP, { holding: 10, sold: 0 }, OPENS), "open", "holds may lapse");
  assert.equal(phaseOf(DROP, { holding: 0, sold: 10 }, OPENS), "soldOut");
  assert.equal(
    phaseOf({ ...DROP, cancelledAt: OPENS }, { holding: 0, sold: 10 }, OPENS),
    "cancelled",
  );
});

Deno.test("the public view: units left after holds and sales, the server's time", () => {
  const view = publicViewOf(DROP, { holding: 3, sold: 4 }, OPENS + 1000);
  assert.equal(view.unitsLeft, 3);
  assert.equal(view.serverTime, new Date(OPENS + 1000).toISOString());
  assert.equal(view.opensAt, new Date(OPENS).toISOString());
  assert.equal(publicViewOf(DROP, { holding: 8, sold: 4 }, OPENS).unitsLeft, 0, "never below 0");
});

Deno.test("a place's holder: the account when signed in, else the guest's cart", () => {
  assert.equal(holderOf("u1", "c1"), "user:u1");
  assert.equal(holderOf(null, "c1"), "cart:c1");
  assert.equal(holderOf(null, null), null);
});

Deno.test("shown where the target is sold: before and while it sells, a sell-out for three days", () => {
  const DAY = 24 * 60 * MINUTE;
  const at = (ledger: { holding: number; sold: number }, now: number, drop = DROP) =>
    shownOnPages(publicViewOf(drop, ledger, now), now);
  const none = { holding: 0, sold: 0 };
  const soldOut = { holding: 0, sold: 10 };
  assert.equal(at(none, OPENS - 30 * DAY), true, "scheduled a month ahead");
  assert.equal(at(none, OPENS + 10 * DAY), true, "still selling, however long");
  assert.equal(at(soldOut, OPENS + 3 * DAY - 1), true);
  assert.equal(at(soldOut, OPENS + 3 * DAY), false);
  assert.equal(at(none, OPENS - DAY, { ...DROP, cancelledAt: OPENS - 2 * DAY }), false);
});
