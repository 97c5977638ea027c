/**
 * The drops' server as a crash, a refusing KV and a bad client meet it: nothing answers 500,
 * nothing is left half written, and the drop's counts stay equal to what the orders say.
 */
import assert from "node:assert/strict";
import { sweepAtStart } from "../../server/queue.ts";
import { sendOpeningMail } from "../../server/drops/opening_mail.ts";
import { createTestApp, TEST_EPOCH } from "../helpers/test_app.ts";
import { keptQueue } from "../helpers/kept_queue.ts";
import { scheduleTestDrop, storedDrop } from "../helpers/drop_room.ts";

const DAY = 24 * 60 * 60_000;

Deno.test("a drop opening more than 30 days ahead is scheduled, swept at start and waited for", async () => {
  await using t = await createTestApp();
  // Deno KV refuses a queue message delayed past 30 days; the owner may plan a year ahead.
  const opensAt = TEST_EPOCH + 90 * DAY;
  const id = await scheduleTestDrop(t, { opensAt: new Date(opensAt).toISOString() });
  assert.equal((await storedDrop(t, id)).opensAt, opensAt);
  // The start's sweep queues the opening again for every drop still to open: a start with a
  // far drop must not fail.
  await sweepAtStart(t);
  // The opening job, delivered early, waits again rather than failing forever.
  t.clock.set(TEST_EPOCH + 31 * DAY);
  assert.equal(await sendOpeningMail(t, id), 0);
});

Deno.test("a far drop's opening job comes at most 30 days ahead (as KV allows) and waits again", async () => {
  await using store = await Deno.openKv(":memory:");
  const queue = keptQueue(store, () => t.clock);
  await using t = await createTestApp({ kv: queue.kv });
  const opensAt = TEST_EPOCH + 90 * DAY;
  const id = await scheduleTestDrop(t, { opensAt: new Date(opensAt).toISOString() });
  // Queued no later than KV allows; delivered then, it waits again until the opening.
  const [first] = queue.ofType("drop-opening");
  assert.equal(first.at, TEST_EPOCH + 30 * DAY);
  t.clock.set(first.at);
  await queue.runDue(t);
  assert.deepEqual(queue.ofType("drop-opening").map((j) => j.at), [TEST_EPOCH + 60 * DAY]);
  t.clock.set(TEST_EPOCH + 60 * DAY);
  await queue.runDue(t);
  assert.deepEqual(queue.ofType("drop-opening").map((j) => j.at), [opensAt]);
  assert.equal((await storedDrop(t, id)).opensAt, opensAt);
});
