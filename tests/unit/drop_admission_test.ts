import assert from "node:assert/strict";
import {
  estimateMinutes,
  isActiveAdmission,
  nextToAdmit,
  placesToAdmit,
  spentBy,
  ticketAnswer,
  waitingInOrder,
} from "../../server/drops/admission_rules.ts";
import type { DropRecord, TicketRecord } from "../../server/drops/record.ts";

const OPENS = Date.UTC(2026, 10, 21, 12, 10);
const MINUTE = 60_000;

const DROP: DropRecord = {
  id: "drop-1",
  target: { kind: "switch", id: 101 },
  name: "Test switch",
  productIds: [],
  units: 10,
  opensAt: OPENS,
  perPersonLimit: 2,
  holdMinutes: 10,
  signedInOnly: false,
  createdAt: OPENS - 60 * MINUTE,
  cancelledAt: null,
  soldOutAt: null,
};

function ticket(n: number, fields: Partial<TicketRecord> = {}): TicketRecord {
  return {
    ticket: `t${String(n).padStart(4, "0")}`,
    dropId: DROP.id,
    holder: `cart:c${n}`,
    network: `10.0.0.${n}`,
    joinedAt: OPENS - MINUTE + n,
    early: true,
    lottery: `l${String(100 - n).padStart(4, "0")}`,
    admittedAt: null,
    units: 0,
    ...fields,
  };
}

Deno.test("places to admit: the units nobody holds or bought, a limit's worth per place", () => {
  const empty = { holding: 0, sold: 0 };
  assert.equal(placesToAdmit(DROP, empty, 0, OPENS - 1), 0, "never before the opening");
  assert.equal(placesToAdmit(DROP, empty, 0, OPENS), 5, "10 units, 2 each: 5 places");
  assert.equal(placesToAdmit({ ...DROP, units: 9 }, empty, 0, OPENS), 5, "a last odd unit");
  assert.equal(placesToAdmit(DROP, empty, 3, OPENS), 2, "3 let in and not yet checked out");
  assert.equal(placesToAdmit(DROP, { holding: 4, sold: 2 }, 1, OPENS), 1);
  assert.equal(placesToAdmit(DROP, { holding: 4, sold: 6 }, 0, OPENS), 0, "all held or sold");
  assert.equal(placesToAdmit(DROP, empty, 9, OPENS), 0, "more let in than room: none");
  assert.equal(placesToAdmit({ ...DROP, cancelledAt: OPENS }, empty, 0, OPENS), 0);
});

Deno.test("an admission takes room until it lapses or checks out", () => {
  const admitted = ticket(1, { admittedAt: OPENS });
  assert.equal(isActiveAdmission(DROP, admitted, OPENS + 9 * MINUTE), true);
  assert.equal(isActiveAdmission(DROP, admitted, OPENS + 10 * MINUTE), false, "lapsed");
  assert.equal(isActiveAdmission(DROP, { ...admitted, units: 2 }, OPENS + MINUTE), false);
  assert.equal(isActiveAdmission(DROP, ticket(2), OPENS), false, "still waiting");
});

Deno.test("the order: the first window by lottery, later arrivals by arrival time", () => {
  const late1 = ticket(50, { early: false, joinedAt: OPENS + MINUTE, lottery: "a" });
  const late2 = ticket(51, { early: false, joinedAt: OPENS + 2 * MINUTE, lottery: "0" });
  const tickets = [late2, ticket(1), ticket(2), late1, ticket(3), ticket(4, { admittedAt: OPENS })];
  // Lottery strings fall as n rises: the draw, not the arrival, decides.
  assert.deepEqual(waitingInOrder(tickets).map((t) => t.ticket), [
    "t0003",
    "t0002",
    "t0001",
    "t0050",
    "t0051",
  ]);
  const picked = nextToAdmit({ ...DROP, units: 6 }, { holding: 0, sold: 0 }, tickets, OPENS);
  assert.deepEqual(picked.map((t) => t.ticket), ["t0003", "t0002"], "3 places less 1 let in");
});

Deno.test("the estimate: the pace after the opening's batch, or none", () => {
  const batch = [OPENS, OPENS, OPENS];
  assert.equal(estimateMinutes([], OPENS + 5 * MINUTE, 3), undefined, "nobody let in yet");
  assert.equal(estimateMinutes(batch, OPENS + 5 * MINUTE, 3), undefined, "only the batch");
  const later = [...batch, OPENS + MINUTE, OPENS + 2 * MINUTE];
  assert.equal(estimateMinutes(later, OPENS + 30_000, 3), undefined, "watched too briefly");
  // 2 let in over 4 minutes: half a place a minute.
  assert.equal(estimateMinutes(later, OPENS + 4 * MINUTE, 3), 6);
  assert.equal(estimateMinutes(later, OPENS + 4 * MINUTE, 1), 2);
  assert.equal(
    estimateMinutes([...later, OPENS + 3 * MINUTE, OPENS + 3 * MINUTE], OPENS + 4 * MINUTE, 1),
    1,
  );
});

Deno.test("a place's answer: waiting, drawn at the opening, let in, lapsed, sold out", () => {
  const facts = (fields = {}) => ({
    drop: DROP,
    ledger: { holding: 0, sold: 0 },
    position: 4,
    admittedTimes: [],
    ...fields,
  });
  const before = ticketAnswer(facts(), ticket(1), OPENS - MINUTE);
  assert.equal(before.state, "waiting");
  assert.equal(before.drawAtOpening, true);
  assert.equal(before.position, undefined, "no place before the draw");
  assert.equal(before.serverTime, new Date(OPENS - MINUTE).toISOString());
  assert.equal(ticketAnswer(facts(), ticket(1), OPENS).position, 4);
  const admitted = ticketAnswer(facts(), ticket(1, { admittedAt: OPENS }), OPENS + MINUTE);
  assert.equal(admitted.state, "admitted");
  assert.equal(admitted.admittedUntil, new Date(OPENS + 10 * MINUTE).toISOString());
  assert.equal(
    ticketAnswer(facts(), ticket(1, { admittedAt: OPENS }), OPENS + 10 * MINUTE).state,
    "expired",
  );
  const soldOut = facts({ ledger: { holding: 0, sold: 10 } });
  assert.equal(ticketAnswer(soldOut, ticket(1), OPENS + MINUTE).state, "soldOut");
  assert.equal(
    ticketAnswer(soldOut, ticket(1, { admittedAt: OPENS, units: 2 }), OPENS + MINUTE).state,
    "admitted",
    "a place that bought keeps its answer",
  );
  const off = ticketAnswer(facts({ drop: { ...DROP, cancelledAt: OPENS } }), ticket(1), OPENS);
  assert.deepEqual([off.state, off.cancelled], ["soldOut", true]);
});

Deno.test("a place whose network or account bought the limit is not in line and takes no room", () => {
  const persons = new Map([["network:10.0.0.1", 2], ["account:ann", 2], ["network:10.0.0.3", 1]]);
  const spent = spentBy(DROP, persons);
  const sameDoor = ticket(1);
  const sameAccount = ticket(2, { holder: "user:ann" });
  const belowLimit = ticket(3);
  const fresh = ticket(4);
  assert.equal(spent(sameDoor), true);
  assert.equal(spent(sameAccount), true);
  assert.equal(spent(belowLimit), false, "one of two bought: one more to buy");
  assert.equal(spent(fresh), false);
  assert.deepEqual(
    waitingInOrder([sameDoor, sameAccount, belowLimit, fresh], spent).map((t) => t.ticket),
    [fresh, belowLimit].map((t) => t.ticket),
  );
  // Let in before its person bought elsewhere: it no longer holds a turn.
  const admitted = ticket(1, { admittedAt: OPENS });
  assert.equal(isActiveAdmission(DROP, admitted, OPENS + MINUTE), true);
  assert.equal(isActiveAdmission(DROP, admitted, OPENS + MINUTE, spent), false);
  const answer = ticketAnswer(
    {
      drop: DROP,
      ledger: { holding: 0, sold: 2 },
      position: undefined,
      admittedTimes: [],
      spent: true,
    },
    ticket(5),
    OPENS + MINUTE,
  );
  assert.equal(answer.state, "limitReached");
});

Deno.test("the room lets in what the stock can make, and is sold out once it can make nothing and nothing is held", () => {
  const ledger = { holding: 0, sold: 2 };
  // Eight left in the drop, but the shelf makes three: two places of a limit of 2.
  assert.equal(placesToAdmit(DROP, ledger, 0, OPENS, 3), 2);
  assert.equal(placesToAdmit(DROP, ledger, 0, OPENS, 0), 0);
  const facts = (canMake: number, holding = 0) => ({
    drop: DROP,
    ledger: { holding, sold: 2 },
    position: 1,
    admittedTimes: [],
    canMake,
  });
  assert.equal(ticketAnswer(facts(0), ticket(1), OPENS + MINUTE).state, "soldOut");
  assert.equal(
    ticketAnswer(facts(0, 1), ticket(1), OPENS + MINUTE).state,
    "waiting",
    "a hold may lapse",
  );
  assert.equal(
    ticketAnswer(facts(0), ticket(1), OPENS - MINUTE).state,
    "waiting",
    "the owner may restock",
  );
});
