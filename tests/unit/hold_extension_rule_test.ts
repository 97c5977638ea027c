/**
 * What a hold's one extension adds (server/orders/hold_extension.ts): the shop's minutes, or a
 * drop's own hold length when shorter, so a drop's short holds stay short.
 */
import assert from "node:assert/strict";
import { extensionMinutes } from "../../server/orders/hold_extension.ts";

const MINUTE = 60_000;
const MADE = Date.UTC(2026, 10, 27, 12, 0, 0);
const DROP_HOLD = {
  dropId: "d1",
  ticket: "t1",
  units: 1,
  persons: ["network:192.0.2.1"],
  state: "holding" as const,
};

function order(holdMinutes: number, dropHold: typeof DROP_HOLD | null) {
  return {
    dropHold,
    createdAt: MADE,
    reservation: { items: [], expiresAt: MADE + holdMinutes * MINUTE, state: "held" as const },
  };
}

Deno.test("an ordinary hold is extended by the shop's minutes, however long it is", () => {
  assert.equal(extensionMinutes(order(30, null), 10), 10);
  assert.equal(extensionMinutes(order(5, null), 10), 10);
});

Deno.test("a drop's hold is extended by its own minutes when fewer than the shop's, else by the shop's", () => {
  assert.equal(extensionMinutes(order(2, DROP_HOLD), 10), 2);
  assert.equal(extensionMinutes(order(10, DROP_HOLD), 10), 10);
  assert.equal(extensionMinutes(order(30, DROP_HOLD), 10), 10);
  assert.equal(extensionMinutes(order(30, DROP_HOLD), 45), 30);
});
