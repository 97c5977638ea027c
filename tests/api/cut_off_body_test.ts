import assert from "node:assert/strict";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { keys } from "../../server/kv/keys.ts";
import { STARTER } from "../helpers/shop_fixtures.ts";

/**
 * A request body that breaks off mid-way: the connection lost, or (while the shop stops) cut by
 * the server. Deno's own error for it (BadResource) used to reach the error handler as a 500, or,
 * under a Content-Length, the JSON reader as "not valid JSON".
 */

/** A body that gives `first` and then fails, as a read from a lost connection does. */
function breakingBody(first: string): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) {
        controller.error(new Deno.errors.BadResource("Cannot read request body"));
        return;
      }
      sent = true;
      controller.enqueue(new TextEncoder().encode(first));
    },
  });
}

/** Sends `path` a body that breaks off after `first`; `declared` bytes in Content-Length, if any. */
async function sendBroken(
  t: TestApp,
  path: string,
  init: { method?: string; first: string; declared?: number; headers?: Record<string, string> },
) {
  const headers: Record<string, string> = { "Content-Type": "application/json", ...init.headers };
  if (init.declared !== undefined) headers["Content-Length"] = String(init.declared);
  const res = await t.app.request(path, {
    method: init.method ?? "POST",
    headers,
    body: breakingBody(init.first),
    duplex: "half",
  } as RequestInit);
  return { status: res.status, headers: res.headers, json: await res.json() };
}

async function count(kv: Deno.Kv, prefix: Deno.KvKey): Promise<number> {
  return (await Array.fromAsync(kv.list({ prefix }))).length;
}

const CUT_OFF = "The request body was cut off before its end. Please send it again.";
const half = JSON.stringify({ topic: "Restock?", message: "Any Box Jades soon?" }).slice(0, 20);

for (const declared of [200, undefined]) {
  const framing = declared === undefined ? "streamed" : "with a Content-Length";
  Deno.test(`a message whose body breaks off (${framing}) is answered 400 saying so, and nothing is kept`, async () => {
    await using t = await createTestApp();
    const res = await sendBroken(t, "/api/sendMessage", { first: half, declared });
    assert.equal(res.status, 400);
    assert.deepEqual(res.json, { error: CUT_OFF });
    assert.equal(await count(t.kv, keys.contactMessages()), 0);
    assert.ok(!t.logs.some((l) => l.msg === "unhandled error"), "no error is logged for it");
  });
}

Deno.test("an image upload or a webhook whose body breaks off is answered 400, never 500", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const image = await sendBroken(t, `/api/admin/catalog/switches/${STARTER.switchIds[0]}/image`, {
    method: "PUT",
    first: "\x89PNG\r\n\x1a\n",
    headers: { Cookie: cookie, "Content-Type": "image/png" },
  });
  assert.equal(image.status, 400);
  assert.deepEqual(image.json, { error: CUT_OFF });
  assert.equal(await count(t.kv, ["images"]), 0);
  const hook = await sendBroken(t, "/api/webhooks/demo", { first: '{"id":"evt_', declared: 80 });
  assert.equal(hook.status, 400);
  assert.deepEqual(hook.json, { error: CUT_OFF });
});
