import assert from "node:assert/strict";
import { createTestApp } from "../helpers/test_app.ts";
import { keys } from "../../server/db/keys.ts";
import {
  deliverEmail,
  type OutboxEntry,
  queueEmail,
  SEND_LEASE_MS,
} from "../../server/email/outbox.ts";

const HELLO = { to: "ann@example.com", subject: "Hello", text: "Hi", html: "<p>Hi</p>" };

async function onlyEntry(kv: Deno.Kv): Promise<Deno.KvEntry<OutboxEntry>> {
  const entries = await Array.fromAsync(kv.list<OutboxEntry>({ prefix: keys.outboxAll() }));
  assert.equal(entries.length, 1);
  return entries[0];
}

Deno.test("a delivery that died mid-send is taken over once its lease runs out, and sent once", async () => {
  await using t = await createTestApp();
  await queueEmail(t.kv, t.clock, HELLO);
  const entry = await onlyEntry(t.kv);
  // A delivery claimed it and its process died before sending.
  await t.kv.set(entry.key, {
    ...entry.value,
    status: "sending",
    attempts: 1,
    leaseUntil: t.clock.now() + SEND_LEASE_MS,
  });
  await t.deliverEmails();
  assert.equal(t.mailer.sent.length, 0, "not while the lease may still be sending it");
  t.clock.advance(SEND_LEASE_MS + 1);
  await t.deliverEmails();
  await t.deliverEmails();
  assert.equal(t.mailer.sent.length, 1);
  const sent = await onlyEntry(t.kv);
  assert.equal(sent.value.status, "sent");
  assert.equal(sent.value.attempts, 2);
});

Deno.test("two deliveries of one email at once send it once", async () => {
  await using t = await createTestApp();
  await queueEmail(t.kv, t.clock, HELLO);
  const { value } = await onlyEntry(t.kv);
  const deliver = () => deliverEmail(t.kv, t.mailer, t.clock, t.logger, value.id);
  await Promise.all([deliver(), deliver(), deliver()]);
  assert.equal(t.mailer.sent.length, 1);
});
