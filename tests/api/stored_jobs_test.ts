/**
 * The shop's work owed later as stored jobs (server/kv/jobs.ts, run by server/queue.ts): written
 * with the change that owes them, claimed once, retried when they throw, never dropped, and left
 * by a dying process to come due again. Deno Deploy and KV Connect stores have no KV queue, so
 * nothing else may carry this work.
 */
import assert from "node:assert/strict";
import { createTestApp } from "../helpers/test_app.ts";
import { storedJobs } from "../helpers/stored_jobs.ts";
import { queueEmail } from "../../server/email/outbox.ts";
import { claimJob, dueJobs, finishJob, putJob, retryJob } from "../../server/kv/jobs.ts";
import {
  JOB_LEASE_MS,
  JOB_RETRY_MS,
  runDueJobs,
  startQueueWorker,
  sweepAtStart,
} from "../../server/queue.ts";
import { getOrder } from "../../server/orders/store.ts";
import { demoPayments } from "../../server/payments/demo/provider.ts";
import { newPackCart } from "../helpers/shop_fixtures.ts";

const HELLO = { to: "ann@example.com", subject: "Hello", text: "Hi", html: "<p>Hi</p>" };

/** `kv`, whose next `failures.left` reads throw, as a store that hiccups. */
function hiccuping(kv: Deno.Kv, failures: { left: number }): Deno.Kv {
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === "get") {
        return (...args: Parameters<Deno.Kv["get"]>) =>
          failures.left-- > 0 ? Promise.reject(new Error("store hiccup")) : target.get(...args);
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

Deno.test("an email's job is stored with it, runs when due and is gone; a later job waits its time", async () => {
  await using t = await createTestApp({ seed: false });
  const jobs = storedJobs(t.kv);
  await queueEmail(t.kv, t.clock, HELLO);
  const [job] = await jobs.all();
  assert.equal(job.job.type, "email");
  assert.equal(job.at, t.clock.now());
  assert.equal(await runDueJobs(t), 1);
  assert.deepEqual(t.mailer.sent.map((m) => m.subject), ["Hello"]);
  assert.deepEqual(await jobs.all(), []);

  // A job due in a minute is not run before.
  await queueEmail(t.kv, t.clock, { ...HELLO, subject: "Later" });
  const [later] = await jobs.all();
  await jobs.remove(later);
  await putJob(t.kv, later.job, { at: t.clock.now() + 60_000 });
  t.clock.advance(59_999);
  assert.equal(await runDueJobs(t), 0);
  assert.equal(t.mailer.sent.length, 1);
  t.clock.advance(1);
  assert.equal(await runDueJobs(t), 1);
  assert.deepEqual(t.mailer.sent.map((m) => m.subject), ["Hello", "Later"]);
});

Deno.test("of two processes finding one job due, one claims it", async () => {
  await using t = await createTestApp({ seed: false });
  await queueEmail(t.kv, t.clock, HELLO);
  const [entry] = await dueJobs(t.kv, t.clock.now(), 10);
  const until = t.clock.now() + JOB_LEASE_MS;
  const claims = await Promise.all([claimJob(t.kv, entry, until), claimJob(t.kv, entry, until)]);
  assert.equal(claims.filter((c) => c !== null).length, 1);
  // Claimed, it is not due for anyone else until its lease ends.
  assert.deepEqual(await dueJobs(t.kv, t.clock.now(), 10), []);
});

Deno.test("a job that throws is tried again on a growing schedule, never dropped, and done once", async () => {
  await using t = await createTestApp({ seed: false });
  const failures = { left: 0 };
  const deps = { ...t, kv: hiccuping(t.kv, failures) };
  const jobs = storedJobs(t.kv);
  await queueEmail(t.kv, t.clock, HELLO);
  // The store fails the job's first eight reads: past the schedule's end, into its hourly tries.
  failures.left = 8;
  const start = t.clock.now();
  const triedAt: number[] = [];
  for (let i = 0; i < 20 && t.mailer.sent.length === 0; i++) {
    if (await runDueJobs(deps) > 0) triedAt.push(t.clock.now() - start);
    const waiting = await jobs.all();
    if (waiting.length === 0) break;
    t.clock.set(waiting[0].at);
  }
  const expected = [0];
  for (let i = 0; i < 8; i++) {
    expected.push(expected[i] + JOB_RETRY_MS[Math.min(i, JOB_RETRY_MS.length - 1)]);
  }
  assert.deepEqual(triedAt, expected);
  assert.deepEqual(t.mailer.sent.map((m) => m.subject), ["Hello"]);
  assert.deepEqual(await jobs.all(), [], "done, the job is gone");
  const told = t.logs.filter((l) => l.msg === "job failed; tried again later");
  assert.equal(told.length, 8);
  assert.deepEqual(told.map((l) => l.level), [
    "warn",
    "warn",
    "warn",
    "warn",
    ...Array(4).fill("error"),
  ]);
});

Deno.test("a process that dies holding a job leaves it to come due again when its lease ends", async () => {
  await using t = await createTestApp({ seed: false });
  await queueEmail(t.kv, t.clock, HELLO);
  const [entry] = await dueJobs(t.kv, t.clock.now(), 10);
  // Claimed by a process that then died: never finished, never put back.
  assert.ok(await claimJob(t.kv, entry, t.clock.now() + JOB_LEASE_MS));
  assert.equal(await runDueJobs(t), 0);
  t.clock.advance(JOB_LEASE_MS - 1);
  assert.equal(await runDueJobs(t), 0, "not while the lease may still be working on it");
  t.clock.advance(1);
  assert.equal(await runDueJobs(t), 1);
  assert.deepEqual(t.mailer.sent.map((m) => m.subject), ["Hello"]);
});

Deno.test("a run that outlives its lease leaves the job to the process that took it over", async () => {
  await using t = await createTestApp({ seed: false });
  const jobs = storedJobs(t.kv);
  await queueEmail(t.kv, t.clock, HELLO);
  const [entry] = await dueJobs(t.kv, t.clock.now(), 10);
  const slow = await claimJob(t.kv, entry, t.clock.now() + JOB_LEASE_MS);
  assert.ok(slow);
  t.clock.advance(JOB_LEASE_MS);
  const [again] = await dueJobs(t.kv, t.clock.now(), 10);
  const other = await claimJob(t.kv, again, t.clock.now() + JOB_LEASE_MS);
  assert.ok(other);
  // The slow run ends, done or failed: the job the other process holds stays as it holds it.
  await finishJob(t.kv, slow);
  await retryJob(t.kv, slow, t.clock.now());
  assert.deepEqual((await jobs.all()).map((j) => j.key), [other.key]);
  await finishJob(t.kv, other);
  assert.deepEqual(await jobs.all(), []);
});

Deno.test("the runner runs a job stored after it started when nudged, and stops with nothing in hand", async () => {
  await using t = await createTestApp({ seed: false });
  // A store of its own, since stopping the runner closes it.
  const kv = await Deno.openKv(":memory:");
  const worker = startQueueWorker({ ...t, kv });
  await worker.runDue();
  await queueEmail(kv, t.clock, HELLO);
  worker.nudge();
  await worker.runDue();
  assert.deepEqual(t.mailer.sent.map((m) => m.subject), ["Hello"]);
  assert.deepEqual(await storedJobs(kv).all(), []);
  await worker.stop();
  assert.equal(worker.running(), false);
});

Deno.test("nothing in the server uses Deno KV's queue, which Deno Deploy and KV Connect lack", async () => {
  const root = new URL("../../server/", import.meta.url);
  const offenders: string[] = [];
  async function walk(dir: URL): Promise<void> {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) await walk(url);
      else if (entry.name.endsWith(".ts") || entry.name.endsWith(".tsx")) {
        const text = await Deno.readTextFile(url);
        for (const [i, line] of text.split("\n").entries()) {
          // A stream's controller enqueues chunks; that is no queue.
          if (/listenQueue\(|(?<!controller)\.enqueue\(/.test(line)) {
            offenders.push(`${url.pathname.split("/server/")[1]}:${i + 1}`);
          }
        }
      }
    }
  }
  await walk(root);
  assert.deepEqual(offenders, []);
});

Deno.test("the runner's runDue runs what is due now even when a look was under way", async () => {
  // Found in review: runDue (what Deno Deploy's cron awaits) joined a look that had listed
  // before the job was stored, and answered before the look after it ran anything.
  await using t = await createTestApp({ seed: false });
  const store = await Deno.openKv(":memory:");
  const gate = { armed: false, held: false, release: Promise.withResolvers<void>() };
  // Once armed, the runner's next look lists the due jobs, then waits until the test lets it on.
  const kv = new Proxy(store, {
    get(target, prop) {
      if (prop === "list") {
        return (selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
          const looks = "start" in selector && selector.start[0] === "jobs";
          if (!looks || !gate.armed || gate.held) return target.list(selector, options);
          gate.held = true;
          return (async function* () {
            const entries = await Array.fromAsync(target.list(selector, options));
            await gate.release.promise;
            yield* entries;
          })();
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const worker = startQueueWorker({ ...t, kv });
  // The start's sweep done, a look begins, and lists nothing due.
  await worker.runDue();
  gate.armed = true;
  worker.nudge();
  while (!gate.held) await new Promise((resolve) => setTimeout(resolve, 5));
  // A job comes due while that look is under way; the cron asks for what is due.
  await queueEmail(store, t.clock, HELLO);
  const ran = worker.runDue();
  gate.release.resolve();
  await ran;
  assert.deepEqual(t.mailer.sent.map((m) => m.subject), ["Hello"]);
  await worker.stop();
});

Deno.test("a lapsed checkout of many parts stores one back-in-stock check, not one per part", async () => {
  // Found in review: every stock record a write freed stored a stock-alerts job of its own, and
  // each is a pass over every back-in-stock sign-up: a Starter Pack's lapse stored eleven.
  await using t = await createTestApp();
  const jobs = storedJobs(t.kv);
  const cartId = await newPackCart(t);
  const started = await t.request(`/api/cart/${cartId}/checkout/us`, { method: "POST" });
  assert.equal(started.status, 200, started.text);
  t.clock.advance(60 * 60_000);
  // One pass: the expiry runs; what it stores waits for the next.
  assert.equal(await runDueJobs(t), 1);
  assert.equal((await getOrder(t.kv, started.json.orderNumber)).status, "EXPIRED");
  assert.equal((await jobs.ofType("stock-alerts")).length, 1);
});

Deno.test("a lapsed hold whose provider cannot be asked keeps one expiry job however often the shop starts", async () => {
  // Found in review: each start's sweep stored one more expiry job for such a hold, each then
  // asking the provider every minute; on Deno Deploy isolates start all the time.
  let down = true;
  await using t = await createTestApp({
    payments: (kv) => {
      const demo = demoPayments(kv);
      return {
        ...demo,
        stop: (ref, orderNumber) =>
          down ? Promise.reject(new Error("provider down")) : demo.stop(ref, orderNumber),
      };
    },
  });
  const jobs = storedJobs(t.kv);
  const cartId = await newPackCart(t);
  const started = await t.request(`/api/cart/${cartId}/checkout/us`, { method: "POST" });
  assert.equal(started.status, 200, started.text);
  t.clock.advance(60 * 60_000);
  for (let start = 0; start < 3; start++) await sweepAtStart(t);
  assert.equal((await jobs.ofType("reservation-expiry")).length, 1);
  assert.equal((await getOrder(t.kv, started.json.orderNumber)).status, "STARTED");
  // The one job still ends the hold once the provider answers.
  down = false;
  await jobs.runDue(t);
  assert.equal((await getOrder(t.kv, started.json.orderNumber)).status, "EXPIRED");
});

Deno.test("a mail server that hangs holds some of the runner's hands, not all: a lapsed hold still ends", async () => {
  // Found in review: one cap held every kind of job, so 32 emails stuck on a mail server that
  // never answers (each up to its timeouts, again at each retry) left no hand for a hold's
  // expiry, a payment event or a refund until they ended.
  const store = await Deno.openKv(":memory:");
  const stuck = Promise.withResolvers<void>();
  const hanging = { send: () => stuck.promise };
  const app = await createTestApp({ kv: store });
  const started = await app.request(`/api/cart/${await newPackCart(app)}/checkout/us`, {
    method: "POST",
  });
  assert.equal(started.status, 200, started.text);
  // A drop's burst of mail, all due before the hold lapses.
  for (let i = 0; i < 64; i++) await queueEmail(store, app.clock, { ...HELLO, subject: `#${i}` });
  app.clock.advance(60 * 60_000);
  const worker = startQueueWorker({ ...app, mailer: hanging });
  const expired = async () =>
    (await getOrder(store, started.json.orderNumber)).status === "EXPIRED";
  for (let look = 0; look < 40 && !await expired(); look++) {
    worker.nudge();
    await new Promise((resolve) => setTimeout(resolve, 60));
  }
  assert.equal(await expired(), true, "the hold lapsed while the mail server hung");
  stuck.reject(new Error("mail server gone"));
  await worker.stop();
});
