import assert from "node:assert/strict";
import {
  type AlertAddress,
  CONFIRM_LINK_MS,
  CONFIRMATIONS_PER_MAILBOX,
  confirmedAddress,
  currentRound,
  inForce,
  MAILBOX_WINDOW_MS,
  recentSends,
  RESEND_AFTER_MS,
  REUSE_LINK_FOR_MS,
  sendsConfirmation,
  unconfirmedTooLong,
} from "../../server/stock/back_in_stock/confirmation_rules.ts";

const NOW = 10 * MAILBOX_WINDOW_MS;
const HOUR = 60 * 60_000;

function address(over: Partial<AlertAddress> = {}): AlertAddress {
  return { round: 0, link: null, lastSentAt: null, ...over };
}

Deno.test("a new address is sent a confirmation; one with a link that lasts a day more is not", () => {
  assert.equal(sendsConfirmation(null, [], NOW), true);
  const live = address({
    link: { token: "t", expiresAt: NOW + REUSE_LINK_FOR_MS },
    lastSentAt: NOW - 2 * HOUR,
  });
  assert.equal(sendsConfirmation(live, [], NOW), false);
  // On the link's last day the shopper asking again gets a new one.
  const dying = { ...live, link: { token: "t", expiresAt: NOW + REUSE_LINK_FOR_MS - 1 } };
  assert.equal(sendsConfirmation(dying, [], NOW), true);
});

Deno.test("an address that confirmed is sent a confirmation again for a later sign-up, within the caps", () => {
  const confirmed = confirmedAddress(address({ lastSentAt: NOW - 2 * HOUR }));
  assert.equal(confirmed.link, null);
  assert.equal(sendsConfirmation(confirmed, [NOW - 2 * HOUR], NOW), true);
  const justNow = confirmedAddress(address({ lastSentAt: NOW - 1 }));
  assert.equal(sendsConfirmation(justNow, [NOW - 1], NOW), false);
});

Deno.test("an address is sent one confirmation an hour at most", () => {
  const sent = address({ lastSentAt: NOW - RESEND_AFTER_MS + 1 });
  assert.equal(sendsConfirmation(sent, [sent.lastSentAt!], NOW), false);
  const older = address({ lastSentAt: NOW - RESEND_AFTER_MS });
  assert.equal(sendsConfirmation(older, [older.lastSentAt!], NOW), true);
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

Deno.test("a confirmation puts in force the sign-ups waiting then, not those made after", () => {
  assert.equal(inForce(undefined, null), true, "a signed-in shopper's own");
  assert.equal(inForce(0, null), false);
  const before = address({ round: 2, confirmedRound: 1 });
  const waiting = currentRound(before);
  assert.equal(inForce(waiting, before), false);
  const after = confirmedAddress(before);
  assert.equal(inForce(waiting, after), true);
  assert.equal(inForce(1, after), true);
  assert.equal(inForce(currentRound(after), after), false, "a sign-up made after the confirmation");
});

Deno.test("an unconfirmed sign-up is dropped after a week, unless a live link can still confirm it", () => {
  const week = NOW - CONFIRM_LINK_MS;
  assert.equal(unconfirmedTooLong(week + 1, 0, null, NOW), false);
  assert.equal(unconfirmedTooLong(week, 0, null, NOW), true);
  const relinked = address({ link: { token: "t", expiresAt: NOW + 1 } });
  assert.equal(unconfirmedTooLong(week, 0, relinked, NOW), false);
  const expired = address({ link: { token: "t", expiresAt: NOW } });
  assert.equal(unconfirmedTooLong(week, 0, expired, NOW), true);
  assert.equal(unconfirmedTooLong(week, 0, address({ confirmedRound: 0 }), NOW), false);
  assert.equal(unconfirmedTooLong(week, undefined, null, NOW), false);
});
