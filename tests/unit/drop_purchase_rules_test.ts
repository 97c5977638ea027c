import assert from "node:assert/strict";
import {
  checkAdmitted,
  countMorePersons,
  type DropCounts,
  type DropHold,
  DropRefused,
  giveBackHeld,
  giveBackSold,
  holdUnits,
  limitSentence,
  sellHeld,
  sellLate,
  TicketTransferred,
  unitsLeft,
} from "../../server/drops/purchase_rules.ts";
import type { DropRecord, TicketRecord } from "../../server/drops/record.ts";

const OPENS = Date.UTC(2026, 10, 27, 18, 0, 0);

const DROP: DropRecord = {
  id: "drop-1",
  target: { kind: "switch", id: 7 },
  name: "Gateron Oil King",
  productIds: [],
  units: 10,
  opensAt: OPENS,
  perPersonLimit: 2,
  holdMinutes: 10,
  signedInOnly: false,
  createdAt: OPENS - 86_400_000,
  cancelledAt: null,
  soldOutAt: null,
};

function ticket(over: Partial<TicketRecord> = {}): TicketRecord {
  return {
    ticket: "t1",
    dropId: DROP.id,
    holder: "cart:c1",
    network: "192.0.2.1",
    joinedAt: OPENS - 1000,
    early: true,
    lottery: "a",
    admittedAt: OPENS + 5000,
    units: 0,
    ...over,
  };
}

function counts(over: Partial<DropCounts> = {}): DropCounts {
  return {
    ledger: { holding: 0, sold: 0 },
    persons: new Map(),
    tickets: new Map([["t1", 0]]),
    ...over,
  };
}

function refusal(fn: () => unknown): DropRefused {
  try {
    fn();
  } catch (err) {
    if (err instanceof DropRefused) return err;
    throw err;
  }
  throw new Error("not refused");
}

Deno.test("a place buys only when it is the shopper's, admitted, after the opening and in time", () => {
  const now = OPENS + 60_000;
  assert.equal(
    refusal(() => checkAdmitted(DROP, null, ["cart:c1"], now)).reason,
    "no admitted ticket",
  );
  assert.throws(
    () => checkAdmitted(DROP, ticket(), ["cart:c2", "user:u1"], now),
    TicketTransferred,
  );
  const waiting = refusal(() =>
    checkAdmitted(DROP, ticket({ admittedAt: null }), ["cart:c1"], now)
  );
  assert.match(waiting.message, /not your turn/);
  const lapsed = refusal(() => checkAdmitted(DROP, ticket(), ["cart:c1"], OPENS + 5000 + 600_001));
  assert.equal(lapsed.reason, "admission lapsed");
  assert.equal(checkAdmitted(DROP, ticket(), ["cart:c1"], now).ticket, "t1");
  assert.equal(checkAdmitted(DROP, ticket(), null, now).ticket, "t1", "a line's own place");
  const otherDrop = ticket({ dropId: "drop-2" });
  assert.equal(
    refusal(() => checkAdmitted(DROP, otherDrop, ["cart:c1"], now)).reason,
    "no admitted ticket",
  );
});

Deno.test("a hold takes no more than the units left, nor past the limit on any key", () => {
  const full = counts({ ledger: { holding: 4, sold: 5 } });
  assert.equal(unitsLeft(DROP, full.ledger), 1);
  // One left, two asked: the shopper hears they can still have the one, not "sold out".
  const fewer = refusal(() => holdUnits(DROP, full, "t1", ["network:n"], 2));
  assert.equal(fewer.reason, "fewer left than asked");
  assert.equal(
    fewer.message,
    "Only 1 of the drop is left: change the quantity to 1 to buy it",
  );
  const none = counts({ ledger: { holding: 5, sold: 5 } });
  assert.equal(
    refusal(() => holdUnits(DROP, none, "t1", ["network:n"], 1)).message,
    "The drop has sold out",
  );

  const atDoor = counts({ persons: new Map([["address:US|1", 2]]) });
  const limited = refusal(() => holdUnits(DROP, atDoor, "t1", ["network:n", "address:US|1"], 1));
  assert.equal(limited.reason, "per-person limit");
  assert.equal(limited.message, "The drop allows 2 per person; you have 2 held or bought");

  const ok = counts({ persons: new Map([["network:n", 1]]) });
  holdUnits(DROP, ok, "t1", ["network:n", "email:a@b.co"], 1);
  assert.deepEqual(ok.ledger, { holding: 1, sold: 0 });
  assert.equal(ok.persons.get("network:n"), 2);
  assert.equal(ok.persons.get("email:a@b.co"), 1);
  assert.equal(ok.tickets.get("t1"), 1);
});

Deno.test("held units go back, or move to sold; sold units return while the drop sells", () => {
  const hold: DropHold = {
    dropId: DROP.id,
    ticket: "t1",
    units: 2,
    persons: ["network:n"],
    state: "holding",
  };
  const c = counts();
  holdUnits(DROP, c, "t1", hold.persons, 2);
  giveBackHeld(c, hold);
  assert.deepEqual(c.ledger, { holding: 0, sold: 0 });
  assert.equal(c.persons.get("network:n"), 0);
  assert.equal(c.tickets.get("t1"), 0);

  holdUnits(DROP, c, "t1", hold.persons, 2);
  sellHeld(c, hold);
  assert.deepEqual(c.ledger, { holding: 0, sold: 2 });
  assert.equal(c.persons.get("network:n"), 2, "a sale still counts for the person");
  giveBackSold(c, { ...hold, state: "sold" });
  assert.deepEqual(c.ledger, { holding: 0, sold: 0 });
  assert.equal(c.persons.get("network:n"), 0);
});

Deno.test("a late payment sells only what is left within the limit; new keys count at payment", () => {
  const hold: DropHold = {
    dropId: DROP.id,
    ticket: "t1",
    units: 2,
    persons: [],
    state: "returned",
  };
  const gone = counts({ ledger: { holding: 9, sold: 0 } });
  assert.equal(sellLate(DROP, gone, hold, ["network:n"]), false);
  const cancelled = { ...DROP, cancelledAt: OPENS };
  assert.equal(sellLate(cancelled, counts(), hold, ["network:n"]), false);
  const room = counts();
  assert.equal(sellLate(DROP, room, hold, ["network:n"]), true);
  assert.deepEqual(room.ledger, { holding: 0, sold: 2 });

  const door = counts({ persons: new Map([["address:x", 1]]) });
  assert.equal(countMorePersons(DROP, door, ["address:x"], 2), false);
  assert.equal(door.persons.get("address:x"), 1, "unchanged when refused");
  assert.equal(countMorePersons(DROP, door, ["email:new"], 2), true);
  assert.equal(door.persons.get("email:new"), 2);
});

Deno.test("the limit's sentence says how many are left", () => {
  assert.equal(
    limitSentence(3, 1),
    "The drop allows 3 per person; you have 1 held or bought, so you can add 2 more",
  );
  assert.equal(limitSentence(2, 2), "The drop allows 2 per person; you have 2 held or bought");
});
