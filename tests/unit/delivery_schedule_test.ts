import assert from "node:assert/strict";
import {
  GIVE_UP_AFTER_MS,
  nextAttemptAt,
  ownerToBeTold,
  TELL_OWNER_AFTER_MS,
} from "../../server/email/delivery_schedule.ts";

const MIN = 60_000;

Deno.test("tries come quickly at first, then hourly", () => {
  const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => nextAttemptAt(0, n, 0)! / MIN);
  assert.deepEqual(delays, [1, 2, 5, 10, 30, 60, 60, 60]);
});

Deno.test("an email gives up only once a day has passed since it was written", () => {
  const createdAt = 1_000;
  assert.equal(
    nextAttemptAt(createdAt, 30, createdAt + GIVE_UP_AFTER_MS - 60 * MIN),
    createdAt + GIVE_UP_AFTER_MS,
  );
  assert.equal(nextAttemptAt(createdAt, 30, createdAt + GIVE_UP_AFTER_MS - 59 * MIN), null);
  assert.notEqual(
    nextAttemptAt(createdAt, 6, createdAt + 5 * 60 * MIN),
    null,
    "hours in, still trying",
  );
});

Deno.test("the owner is told once mail has failed for half an hour, and only once", () => {
  assert.equal(ownerToBeTold(null, false, 10 * 60 * MIN), false, "not failing");
  assert.equal(ownerToBeTold(0, false, TELL_OWNER_AFTER_MS - 1), false, "not for long yet");
  assert.equal(ownerToBeTold(0, false, TELL_OWNER_AFTER_MS), true);
  assert.equal(ownerToBeTold(0, true, 5 * TELL_OWNER_AFTER_MS), false, "told already");
});
