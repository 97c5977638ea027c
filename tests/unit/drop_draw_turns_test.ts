import assert from "node:assert/strict";
import { drawTurns, waitingInOrder } from "../../server/drops/admission_rules.ts";
import type { TicketRecord } from "../../server/drops/record.ts";

const OPENS = Date.UTC(2026, 10, 21, 12, 10);

function ticket(n: number, network: string, fields: Partial<TicketRecord> = {}): TicketRecord {
  return {
    ticket: `t${n}`,
    dropId: "drop-1",
    holder: `cart:c${n}`,
    network,
    joinedAt: OPENS - 60_000 + n,
    early: true,
    lottery: `l${String(100 - n).padStart(3, "0")}`,
    admittedAt: null,
    units: 0,
    ...fields,
  };
}

Deno.test("a network's first-window places: its first arrival is drawn, the rest come after every network's first", () => {
  // The script's later places hold the best lottery numbers; they still wait behind everyone.
  const script = [1, 2, 3].map((n) => ticket(n, "10.0.0.9", { lottery: `a${n}` }));
  const others = [4, 5].map((n) => ticket(n, `10.0.0.${n}`));
  const order = waitingInOrder([...others, ...script]).map((t) => t.ticket);
  // Drawn by lottery among first places (t1 "a1" < t5 "l095" < t4 "l096"), then the rest.
  assert.deepEqual(order, ["t1", "t5", "t4", "t2", "t3"]);
});

Deno.test("turns count places already let in, so a network's second place never moves up into the draw", () => {
  const first = ticket(1, "n", { admittedAt: OPENS });
  const second = ticket(2, "n", { lottery: "a" });
  const other = ticket(3, "m", { lottery: "z" });
  assert.deepEqual(drawTurns([first, second, other]), new Map([["t1", 0], ["t2", 1], ["t3", 0]]));
  assert.deepEqual(waitingInOrder([first, second, other]).map((t) => t.ticket), ["t3", "t2"]);
});

Deno.test("later arrivals keep their arrival order whatever their network", () => {
  const late = [1, 2, 3].map((n) => ticket(n, "n", { early: false, joinedAt: OPENS + 60_000 + n }));
  assert.deepEqual(waitingInOrder([late[2], late[0], late[1]]).map((t) => t.ticket), [
    "t1",
    "t2",
    "t3",
  ]);
});
