/**
 * What a process does as it starts: the quick recovery every time (payment events waiting, holds
 * that lapsed), the full sweep at most once every 5 minutes per store. On Deno Deploy an idle
 * app's cron may start an isolate every minute; a full sweep reads every order.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/test_app.ts";
import { startHostedCheckout } from "../helpers/shop_fixtures.ts";
import { storedJobs } from "../helpers/stored_jobs.ts";
import { FULL_SWEEP_EVERY_MS, JOB_LEASE_MS, sweepOnStart } from "../../server/queue.ts";
import { claimJob, dueJobs } from "../../server/kv/jobs.ts";
import { getOrder } from "../../server/orders/store.ts";

Deno.test("a start sweeps fully at most every 5 minutes per store, yet every start ends a lapsed hold", async () => {
  await using t = await createTestApp({ env: { RESERVATION_MINUTES: "1" } });
  const { orderNumber } = await startHostedCheckout(t);
  assert.equal(await sweepOnStart(t), "full");
  assert.equal(t.logs.filter((l) => l.msg === "recovered at start").length, 1);

  // The hold lapses while the process that claimed its expiry job dies: the job is that dead
  // process's until its lease ends, two minutes on.
  t.clock.advance(61_000);
  const [expiry] = (await dueJobs(t.kv, t.clock.now(), 50))
    .filter((e) => e.value.job.type === "reservation-expiry");
  assert.ok(await claimJob(t.kv, expiry, t.clock.now() + JOB_LEASE_MS));
  // A new process a minute after the last full sweep: the quick recovery only, which ends it.
  assert.equal(await sweepOnStart(t), "quick");
  assert.equal((await getOrder(t.kv, orderNumber)).status, "EXPIRED");
  assert.equal(t.logs.filter((l) => l.msg === "recovered at start").length, 1);
  assert.deepEqual(t.logs.find((l) => l.msg === "recovered at start (quick)"), {
    msg: "recovered at start (quick)",
    events: 0,
    expired: 1,
  });
  // The dead process's job, due when its lease ends, finds the order ended.
  t.clock.advance(JOB_LEASE_MS);
  await storedJobs(t.kv).runDue(t);
  assert.equal((await getOrder(t.kv, orderNumber)).status, "EXPIRED");

  // Five minutes after the last full sweep, the next start sweeps fully again; of two starting
  // together, one does.
  t.clock.advance(FULL_SWEEP_EVERY_MS);
  const together = await Promise.all([sweepOnStart(t), sweepOnStart(t)]);
  assert.deepEqual(together.sort(), ["full", "quick"]);
});
