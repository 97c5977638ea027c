/**
 * The drop pages' clock: every countdown runs on the server's time (the device's plus the offset
 * measured at an answer), so a device set wrong opens the door at the server's second.
 */
import assert from "node:assert/strict";
import {
  clockOffset,
  countdownWords,
  formatCountdown,
  roomOpensAt,
  secondsUntil,
  utcText,
} from "../../client/app/drops/drop_clock.ts";
import { dropStillShown, phaseNow } from "../../client/app/drops/drop_phase.ts";

const OPENS = "2026-11-27T09:00:00.000Z";

Deno.test("a device clock ten minutes slow counts down to the server's opening, not its own", () => {
  const server = Date.parse("2026-11-27T08:59:00.000Z");
  const device = server - 10 * 60_000; // the device says 08:49
  const offset = clockOffset(new Date(server).toISOString(), device);
  assert.equal(offset, 10 * 60_000);
  assert.equal(secondsUntil(OPENS, offset, device), 60, "one minute, as the server sees it");
  assert.equal(secondsUntil(OPENS, offset, device + 59_500), 1, "the last half second shows 1");
  assert.equal(secondsUntil(OPENS, offset, device + 60_000), 0);
  assert.equal(secondsUntil(OPENS, offset, device + 3_600_000), 0, "never negative");
  // The same device without the offset would have shown eleven minutes.
  assert.equal(secondsUntil(OPENS, 0, device), 660);
});

Deno.test("a device clock ahead counts the same, and a bad time answers no offset", () => {
  const server = Date.parse("2026-11-27T08:58:00.000Z");
  const device = server + 3 * 3_600_000;
  const offset = clockOffset(new Date(server).toISOString(), device);
  assert.equal(secondsUntil(OPENS, offset, device), 120);
  assert.equal(clockOffset("not a time", device), 0);
  assert.equal(secondsUntil("not a time", 0, device), 0);
});

Deno.test("the room opens two minutes before the opening", () => {
  assert.equal(roomOpensAt(OPENS), "2026-11-27T08:58:00.000Z");
});

Deno.test("a countdown reads as a clock, with hours and days only when there are some", () => {
  assert.equal(formatCountdown(0), "00:00");
  assert.equal(formatCountdown(5), "00:05");
  assert.equal(formatCountdown(65), "01:05");
  assert.equal(formatCountdown(3_599), "59:59");
  assert.equal(formatCountdown(3_600), "1:00:00");
  assert.equal(formatCountdown(3_723), "1:02:03");
  assert.equal(formatCountdown(86_400 + 3_723), "1 day 01:02:03");
  assert.equal(formatCountdown(3 * 86_400), "3 days 00:00:00");
  assert.equal(formatCountdown(-5), "00:00");
});

Deno.test("a countdown in words says seconds only in the last minutes", () => {
  assert.equal(countdownWords(0), "now");
  assert.equal(countdownWords(1), "1 second");
  assert.equal(countdownWords(125), "2 minutes 5 seconds");
  assert.equal(countdownWords(60), "1 minute");
  assert.equal(countdownWords(12 * 60 + 5), "12 minutes");
  assert.equal(countdownWords(3_600 + 120), "1 hour 2 minutes");
  assert.equal(countdownWords(2 * 86_400 + 3_600), "2 days 1 hour");
});

Deno.test("UTC is written one way, whatever the time zone", () => {
  assert.equal(utcText(OPENS), "27 Nov 2026, 09:00 UTC");
  assert.equal(utcText("2026-01-05T23:07:00+02:00"), "5 Jan 2026, 21:07 UTC");
  assert.equal(utcText("nonsense"), "");
});

Deno.test("the page moves a drop's phase on as its countdowns run out, never back", () => {
  assert.equal(phaseNow("scheduled", 10, 130), "scheduled");
  assert.equal(phaseNow("scheduled", 0, 100), "room");
  assert.equal(phaseNow("scheduled", 0, 0), "open");
  assert.equal(phaseNow("room", 0, 0), "open");
  assert.equal(phaseNow("soldOut", 0, 0), "soldOut");
  assert.equal(phaseNow("cancelled", 0, 0), "cancelled");
});

Deno.test("a product page shows its drop until three days after a sell-out, never a called-off one", () => {
  const at = (phase: "scheduled" | "open" | "soldOut" | "cancelled", days: number) => ({
    phase,
    opensAt: OPENS,
    serverTime: new Date(Date.parse(OPENS) + days * 86_400_000).toISOString(),
  });
  assert.equal(dropStillShown(at("scheduled", -1)), true);
  assert.equal(dropStillShown(at("open", 30)), true, "a drop still selling is shown");
  assert.equal(dropStillShown(at("soldOut", 0.01)), true);
  assert.equal(dropStillShown(at("soldOut", 2.9)), true);
  assert.equal(dropStillShown(at("soldOut", 3)), false);
  assert.equal(dropStillShown(at("cancelled", -1)), false);
});
