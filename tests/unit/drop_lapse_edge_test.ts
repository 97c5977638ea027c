/** A turn to buy lapses at its end itself, the moment the room lets the next place in. */
import assert from "node:assert/strict";
import { checkAdmitted, DropRefused } from "../../server/drops/purchase_rules.ts";
import { isActiveAdmission } from "../../server/drops/admission_rules.ts";
import type { DropRecord, TicketRecord } from "../../server/drops/record.ts";

const drop: DropRecord = {
  id: "drop-1",
  target: { kind: "switch", id: 1 },
  name: "Cream Blue",
  productIds: [],
  units: 1,
  opensAt: 1_000_000,
  perPersonLimit: 1,
  holdMinutes: 2,
  signedInOnly: false,
  createdAt: 0,
  cancelledAt: null,
  soldOutAt: null,
};
const ticket: TicketRecord = {
  ticket: "t".repeat(22),
  dropId: drop.id,
  holder: "cart:c",
  network: "192.0.2.1",
  joinedAt: drop.opensAt - 1000,
  early: true,
  lottery: "a",
  admittedAt: drop.opensAt,
  units: 0,
};
const until = drop.opensAt + 2 * 60_000;

Deno.test("the cart and the room agree on the last moment of a turn", () => {
  assert.equal(checkAdmitted(drop, ticket, null, until - 1), ticket);
  assert.ok(isActiveAdmission(drop, ticket, until - 1));
  assert.ok(!isActiveAdmission(drop, ticket, until));
  assert.throws(
    () => checkAdmitted(drop, ticket, null, until),
    (err: unknown) => err instanceof DropRefused && err.reason === "admission lapsed",
  );
});
