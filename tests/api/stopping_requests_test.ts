import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "../helpers/test_app.ts";
import { keys } from "../../server/kv/keys.ts";
import { shutdownGate } from "../../server/http/shutdown_gate.ts";

/**
 * What requests meet while the shop stops (main.ts drives the gate on SIGTERM/SIGINT; the whole
 * process is played in shutdown_test.ts): newcomers are told to come back, bodies already
 * arriving are waited for, and one cut off is told to come back too. Never a 500.
 */

const RESTARTING = { error: "The shop is restarting; try again in a moment." };
const NEVER = new Promise<void>(() => {});
const message = JSON.stringify({ topic: "Restock?", message: "Any Box Jades soon?" });

/** A body the test sends in two parts; `started` resolves once the shop is reading it. */
function twoPartBody(onSecondPull: (c: ReadableStreamDefaultController<Uint8Array>) => void) {
  let pulls = 0;
  let pulled!: () => void;
  const started = new Promise<void>((resolve) => pulled = resolve);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      if (pulls === 1) {
        controller.enqueue(new TextEncoder().encode(message.slice(0, 20)));
        pulled();
      } else if (pulls === 2) {
        onSecondPull(controller);
      }
    },
  });
  return { body, started };
}

function post(t: TestApp, body: ReadableStream<Uint8Array>) {
  return t.app.request("/api/sendMessage", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
    duplex: "half",
  } as RequestInit);
}

async function kept(kv: Deno.Kv): Promise<number> {
  return (await Array.fromAsync(kv.list({ prefix: keys.contactMessages() }))).length;
}

Deno.test("once the shop is stopping, a request arriving is answered 503 in words with Retry-After, and logged", async () => {
  const gate = shutdownGate();
  await using t = await createTestApp({ shutdown: gate });
  await gate.drain(NEVER);
  for (const [path, method] of [["/api/ready", "GET"], ["/api/sendMessage", "POST"]]) {
    const res = await t.request(path, { method, body: method === "POST" ? {} : undefined });
    assert.equal(res.status, 503, path);
    assert.equal(res.headers.get("Retry-After"), "5");
    assert.deepEqual(res.json, RESTARTING);
  }
  assert.deepEqual(t.logs.filter((l) => l.msg === "request").map((l) => l.status), [503, 503]);
  assert.equal(await kept(t.kv), 0);
});

Deno.test("a message still arriving when the stop comes is waited for, kept whole and answered 200", async () => {
  const gate = shutdownGate();
  await using t = await createTestApp({ shutdown: gate });
  let finish!: (c: ReadableStreamDefaultController<Uint8Array>) => void;
  const controllerReady = new Promise<ReadableStreamDefaultController<Uint8Array>>((resolve) =>
    finish = resolve
  );
  const { body, started } = twoPartBody((c) => finish(c));
  const answer = post(t, body);
  await started;
  let left: number | undefined;
  const drained = gate.drain(NEVER).then((n) => left = n);
  // A newcomer is turned away meanwhile; the stop still waits for the message.
  assert.equal((await t.request("/api/cart", { method: "POST", body: {} })).status, 503);
  assert.equal(left, undefined, "the stop waits while the message arrives");
  const controller = await controllerReady;
  controller.enqueue(new TextEncoder().encode(message.slice(20)));
  controller.close();
  const res = await answer;
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal((await res.json()).ok, true);
  await drained;
  assert.equal(left, 0);
  assert.equal(await kept(t.kv), 1);
});

Deno.test("a message cut off while the shop stops is answered 503 in words with Retry-After, and nothing is kept", async () => {
  const gate = shutdownGate();
  await using t = await createTestApp({ shutdown: gate });
  const { body } = twoPartBody((c) => {
    // The stop's bound ran out: the server cuts the body off, as Deno does to one still arriving.
    void gate.drain(Promise.resolve());
    c.error(new Deno.errors.BadResource("Cannot read request body"));
  });
  const res = await post(t, body);
  assert.equal(res.status, 503);
  assert.equal(res.headers.get("Retry-After"), "5");
  assert.deepEqual(await res.json(), RESTARTING);
  assert.equal(await kept(t.kv), 0);
  assert.ok(!t.logs.some((l) => l.msg === "unhandled error"));
});
