/**
 * The rule behind useRequest (client/app/request_runner.ts): an answer is reported once, and
 * never after the request was stopped (a page left, an id changed), which also aborts the call.
 */
import assert from "node:assert/strict";
import { type Outcome, startRequest } from "../../client/app/request_runner.ts";

/** A loader whose answer the test releases by hand, and the signal it was given. */
function pending<T>() {
  let settle!: { resolve: (v: T) => void; reject: (e: unknown) => void };
  let signal!: AbortSignal;
  const loader = (s: AbortSignal) => {
    signal = s;
    return new Promise<T>((resolve, reject) => (settle = { resolve, reject }));
  };
  return { loader, settle: () => settle, signal: () => signal };
}

/** Lets queued promise callbacks run. */
const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("a wanted answer is reported once with its data", async () => {
  const call = pending<number>();
  const seen: Outcome<number>[] = [];
  startRequest(call.loader, (o) => seen.push(o));
  await tick();
  call.settle().resolve(42);
  await tick();
  assert.deepEqual(seen, [{ ok: true, data: 42 }]);
  assert.equal(call.signal().aborted, false);
});

Deno.test("a failure is reported with its error, a throwing loader too", async () => {
  const seen: Outcome<number>[] = [];
  const error = new Error("offline");
  startRequest(() => Promise.reject(error), (o) => seen.push(o));
  startRequest<number>(() => {
    throw error;
  }, (o) => seen.push(o));
  await tick();
  assert.deepEqual(seen, [{ ok: false, error }, { ok: false, error }]);
});

Deno.test("a stopped request is aborted and its late answer ignored", async () => {
  const call = pending<string>();
  const seen: Outcome<string>[] = [];
  const stop = startRequest(call.loader, (o) => seen.push(o));
  await tick();
  stop();
  assert.equal(call.signal().aborted, true, "the call is told to stop");
  call.settle().resolve("stale");
  await tick();
  assert.deepEqual(seen, [], "the stale answer is not reported");
});

Deno.test("of two requests for different keys, only the newer one's answer counts", async () => {
  const first = pending<string>();
  const second = pending<string>();
  const seen: string[] = [];
  const report = (o: Outcome<string>) => seen.push(o.ok ? o.data : "failed");
  const stopFirst = startRequest(first.loader, report);
  // The page moves on (a new id): the old request is stopped and a new one starts.
  stopFirst();
  startRequest(second.loader, report);
  await tick();
  second.settle().resolve("new");
  first.settle().resolve("old");
  await tick();
  assert.deepEqual(seen, ["new"]);
});
