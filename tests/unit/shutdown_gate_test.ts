import assert from "node:assert/strict";
import { shutdownGate } from "../../server/http/shutdown_gate.ts";

/** A promise and the functions that settle it, for work a test finishes when it chooses. */
function pending() {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Never settles: a bound that does not run out within the test. */
const NEVER = new Promise<void>(() => {});

Deno.test("a stop with no body arriving goes on at once, and from then on the shop is stopping", async () => {
  const gate = shutdownGate();
  assert.equal(gate.stopping(), false);
  assert.equal(await gate.drain(NEVER), 0);
  assert.equal(gate.stopping(), true);
});

Deno.test("a stop waits for every request with a body in hand, whether it succeeds or fails", async () => {
  const gate = shutdownGate();
  const [a, b] = [pending(), pending()];
  const tracked = [gate.track(a.promise), gate.track(b.promise).catch(() => "failed")];
  let drained: number | undefined;
  const drain = gate.drain(NEVER).then((left) => drained = left);
  assert.equal(gate.stopping(), true, "stopping as soon as the stop starts");
  a.resolve();
  await tracked[0];
  assert.equal(drained, undefined, "one request is still in hand");
  b.reject(new Error("cut off"));
  assert.equal(await tracked[1], "failed", "the request's own outcome is kept");
  await drain;
  assert.equal(drained, 0);
});

Deno.test("a stop goes on when its bound runs out, saying how many requests it leaves behind", async () => {
  const gate = shutdownGate();
  const stuck = pending();
  const tracked = gate.track(stuck.promise);
  const bound = pending();
  const drain = gate.drain(bound.promise);
  bound.resolve();
  assert.equal(await drain, 1);
  stuck.resolve();
  await tracked;
});
