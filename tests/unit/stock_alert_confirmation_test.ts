import assert from "node:assert/strict";
import {
  CONFIRMATIONS_PER_MAILBOX,
  MAILBOX_WINDOW_MS,
  recentSends,
  RESEND_AFTER_MS,
  sendsConfirmation,
} from "../../server/stock/back_in_stock/confirmation_rules.ts";

const NOW = 10 * MAILBOX_WINDOW_MS;
const HOUR = 60 * 60_000;

Deno.test("a new address is sent a confirmation; a confirmed one never again", () => {
  assert.equal(sendsConfirmation(null, [], NOW), true);
  assert.equal(sendsConfirmation({ confirmedAt: NOW - 1, lastSentAt: null }, [], NOW), false);
});

Deno.test("an address is sent one confirmation an hour at most", () => {
  const sent = { confirmedAt: null, lastSentAt: NOW - RESEND_AFTER_MS + 1 };
  assert.equal(sendsConfirmation(sent, [sent.lastSentAt], NOW), false);
  const older = { confirmedAt: null, lastSentAt: NOW - RESEND_AFTER_MS };
  assert.equal(sendsConfirmation(older, [older.lastSentAt], NOW), true);
});

Deno.test(`a mailbox gets ${CONFIRMATIONS_PER_MAILBOX} confirmations in any 24 hours, whatever the spelling`, () => {
  const three = [NOW - 20 * HOUR, NOW - 5 * HOUR, NOW - HOUR];
  assert.equal(CONFIRMATIONS_PER_MAILBOX, 3);
  assert.equal(sendsConfirmation(null, three.slice(0, 2), NOW), true);
  assert.equal(sendsConfirmation(null, three, NOW), false);
  // The oldest falls out of the window 24 hours after it was sent.
  assert.equal(sendsConfirmation(null, three, three[0] + MAILBOX_WINDOW_MS), true);
  assert.deepEqual(recentSends(three, three[0] + MAILBOX_WINDOW_MS), three.slice(1));
});
