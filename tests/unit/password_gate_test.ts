/**
 * The password hashing gate: a bounded number at once, first come first served, a bounded queue,
 * and the permit given back however a task ends. Tasks are promises the test settles, so nothing
 * here depends on how fast anything runs.
 */
import assert from "node:assert/strict";
import {
  BUSY_MESSAGE,
  createGate,
  type Gate,
  passwordGate,
  permitsFor,
  QUEUE_PER_PERMIT,
} from "../../server/password_gate.ts";
import { Unavailable } from "../../server/errors.ts";

/** A task the test starts watching and ends by hand. */
interface HeldTask {
  /** Settles when the gate starts the task. */
  started: Promise<void>;
  /** Whether the gate has started it. */
  isStarted(): boolean;
  finish(): void;
  fail(err: Error): void;
  /** What `gate.run` answered. */
  result: Promise<string>;
}

/** Submits a task named `name` to `gate`, recording when it starts and how many run at once. */
function submit(gate: Gate, name: string, log: string[], counter = { now: 0, max: 0 }): HeldTask {
  const started = Promise.withResolvers<void>();
  const done = Promise.withResolvers<void>();
  let isStarted = false;
  const result = gate.run(async () => {
    isStarted = true;
    log.push(name);
    counter.max = Math.max(counter.max, ++counter.now);
    started.resolve();
    try {
      await done.promise;
      return name;
    } finally {
      counter.now--;
    }
  });
  return {
    started: started.promise,
    isStarted: () => isStarted,
    finish: () => done.resolve(),
    fail: (err) => done.reject(err),
    result,
  };
}

Deno.test("at most `permits` tasks run at once; the next starts when one ends", async () => {
  const gate = createGate({ permits: 2, queue: 10 });
  const log: string[] = [];
  const counter = { now: 0, max: 0 };
  const tasks = ["a", "b", "c", "d", "e"].map((name) => submit(gate, name, log, counter));
  await Promise.all([tasks[0].started, tasks[1].started]);
  assert.deepEqual(gate.load(), { running: 2, waiting: 3 });
  assert.equal(tasks[2].isStarted(), false);

  tasks[1].finish();
  assert.equal(await tasks[1].result, "b");
  await tasks[2].started;
  assert.equal(tasks[3].isStarted(), false);
  assert.deepEqual(gate.load(), { running: 2, waiting: 2 });

  for (const task of tasks) task.finish();
  assert.deepEqual(await Promise.all(tasks.map((t) => t.result)), ["a", "b", "c", "d", "e"]);
  assert.equal(counter.max, 2);
  assert.deepEqual(gate.load(), { running: 0, waiting: 0 });
});

Deno.test("waiting tasks start in arrival order; a newcomer does not take a freed permit", async () => {
  const gate = createGate({ permits: 1, queue: 10 });
  const log: string[] = [];
  const tasks = ["1", "2", "3", "4"].map((name) => submit(gate, name, log));
  await tasks[0].started;
  tasks[0].finish();
  // Arrives after the permit was freed, but behind the three already waiting.
  const late = submit(gate, "late", log);
  for (const task of [...tasks.slice(1), late]) {
    await task.started;
    task.finish();
    await task.result;
  }
  assert.deepEqual(log, ["1", "2", "3", "4", "late"]);
});

Deno.test("past the queue a task is refused at once: Unavailable with Retry-After, never run", async () => {
  const gate = createGate({ permits: 1, queue: 2, retryAfterSeconds: 4 });
  const log: string[] = [];
  const held = ["run", "wait-1", "wait-2"].map((name) => submit(gate, name, log));
  await held[0].started;
  let ran = false;
  const refused = await gate.run(() => {
    ran = true;
    return Promise.resolve("ran");
  }).then(() => null, (err: unknown) => err);
  assert.ok(refused instanceof Unavailable, String(refused));
  assert.equal(refused.message, BUSY_MESSAGE);
  assert.equal(refused.retryAfterSeconds, 4);
  assert.equal(ran, false);
  assert.deepEqual(gate.load(), { running: 1, waiting: 2 });

  // Once the queue moves, there is room again.
  held[0].finish();
  await held[1].started;
  const after = submit(gate, "after", log);
  for (const task of [...held, after]) task.finish();
  assert.deepEqual(await Promise.all([...held, after].map((t) => t.result)), [
    "run",
    "wait-1",
    "wait-2",
    "after",
  ]);
});

Deno.test("a task that throws gives its permit back", async () => {
  const gate = createGate({ permits: 1, queue: 1 });
  const log: string[] = [];
  const failing = submit(gate, "failing", log);
  const waiting = submit(gate, "waiting", log);
  await failing.started;
  failing.fail(new Error("hash failed"));
  await assert.rejects(failing.result, /hash failed/);
  await waiting.started;
  waiting.finish();
  assert.equal(await waiting.result, "waiting");

  // A task that throws before its first await also gives it back.
  await assert.rejects(
    gate.run(() => {
      throw new Error("at once");
    }),
    /at once/,
  );
  assert.deepEqual(gate.load(), { running: 0, waiting: 0 });
  assert.equal(await gate.run(() => Promise.resolve("next")), "next");
});

Deno.test("permits: all cores but one, at least one; the queue is a few hashes per permit", () => {
  assert.equal(permitsFor(1), 1);
  assert.equal(permitsFor(2), 1);
  assert.equal(permitsFor(8), 7);
  assert.equal(passwordGate.permits, permitsFor(navigator.hardwareConcurrency || 1));
  assert.equal(passwordGate.queue, passwordGate.permits * QUEUE_PER_PERMIT);
  assert.throws(() => createGate({ permits: 0, queue: 1 }), RangeError);
  assert.throws(() => createGate({ permits: 1, queue: -1 }), RangeError);
});
