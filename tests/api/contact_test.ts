import assert from "node:assert/strict";
import { createTestApp } from "../helpers/test_app.ts";
import { listOutbox } from "../../server/email/outbox.ts";
import { keys } from "../../server/kv/keys.ts";

const good = {
  topic: "Order question",
  message: "Where is my tester?",
  userEmail: "ann@example.com",
};

async function contactCount(kv: Deno.Kv): Promise<number> {
  let n = 0;
  for await (const _ of kv.list({ prefix: keys.contactMessages() })) n++;
  return n;
}

Deno.test("a contact message is stored and emailed to the shop once", async () => {
  await using t = await createTestApp({ env: { SHOP_EMAIL: "owner@shop.test" } });
  const res = await t.request("/api/sendMessage", {
    method: "POST",
    body: { ...good, name: "Ann" },
  });
  assert.equal(res.status, 200);
  assert.equal(res.json.ok, true);
  assert.equal(await contactCount(t.kv), 1);
  assert.equal(await t.deliverEmails(), 1);
  assert.equal(await t.deliverEmails(), 0, "a sent email is not sent again");
  assert.equal(t.mailer.sent.length, 1);
  const [mail] = t.mailer.sent;
  assert.equal(mail.to, "owner@shop.test");
  assert.equal(mail.subject, "Contact: Order question");
  assert.equal(mail.replyTo, "ann@example.com");
  assert.match(mail.text, /Where is my tester\?/);
});

Deno.test("an anonymous message has no reply address", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/sendMessage", {
    method: "POST",
    body: { topic: "Idea", message: "Add more silent switches", userEmail: "" },
  });
  assert.equal(res.status, 200);
  await t.deliverEmails();
  assert.equal(t.mailer.sent[0].replyTo, undefined);
  assert.match(t.mailer.sent[0].text, /anonymous/);
});

Deno.test("markup in a message is escaped in the email's HTML", async () => {
  await using t = await createTestApp();
  await t.request("/api/sendMessage", {
    method: "POST",
    body: { topic: "<b>hi</b>", message: "<script>alert(1)</script>", userEmail: "" },
  });
  await t.deliverEmails();
  assert.doesNotMatch(t.mailer.sent[0].html, /<script>/);
  assert.match(t.mailer.sent[0].html, /&#60;script&#62;/);
});

Deno.test("contact validation: each bad input gets a readable 4xx and stores nothing", async () => {
  await using t = await createTestApp();
  const cases: [unknown, number, RegExp][] = [
    [{ ...good, topic: "" }, 400, /Subject is required/],
    [{ ...good, topic: "   " }, 400, /Subject is required/],
    [{ message: "x", userEmail: "" }, 400, /Subject is required/],
    [{ ...good, message: "" }, 400, /Message is required/],
    [{ ...good, message: "x".repeat(801) }, 400, /at most 800 characters/],
    [{ ...good, userEmail: "not-an-email" }, 400, /valid email address/],
    [{ ...good, topic: 42 }, 400, /Subject/],
    [{ ...good, message: ["a"] }, 400, /Message/],
    ["{not json", 400, /not valid JSON/],
  ];
  for (const [body, status, message] of cases) {
    const res = await t.request("/api/sendMessage", {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json" },
    });
    assert.equal(res.status, status, JSON.stringify(body));
    assert.match(res.json.error, message);
  }
  const wrongType = await t.request("/api/sendMessage", {
    method: "POST",
    body: "topic=a&message=b",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  assert.equal(wrongType.status, 415);
  assert.equal(await contactCount(t.kv), 0);
  assert.equal((await listOutbox(t.kv)).length, 0);
});

Deno.test("an 800-character message is accepted", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/sendMessage", {
    method: "POST",
    body: { ...good, message: "x".repeat(800) },
  });
  assert.equal(res.status, 200);
});

Deno.test("contact is rate limited per client: the 6th message in 10 minutes gets 429", async () => {
  await using t = await createTestApp();
  for (let i = 0; i < 5; i++) {
    assert.equal((await t.request("/api/sendMessage", { method: "POST", body: good })).status, 200);
  }
  const limited = await t.request("/api/sendMessage", { method: "POST", body: good });
  assert.equal(limited.status, 429);
  assert.match(limited.json.error, /wait a few minutes/);
  assert.equal(await contactCount(t.kv), 5);
  t.clock.advance(10 * 60 * 1000);
  assert.equal((await t.request("/api/sendMessage", { method: "POST", body: good })).status, 200);
});

Deno.test("a failing mail server is retried and the email is kept until it goes out", async () => {
  await using t = await createTestApp();
  await t.request("/api/sendMessage", { method: "POST", body: good });
  t.mailer.failNext = 2;
  assert.equal(await t.deliverEmails(), 0);
  assert.equal(await t.deliverEmails(), 0);
  assert.equal((await listOutbox(t.kv))[0].status, "pending");
  assert.equal(await t.deliverEmails(), 1);
  const [entry] = await listOutbox(t.kv);
  assert.equal(entry.status, "sent");
  assert.equal(entry.attempts, 3);
  assert.equal(t.mailer.sent.length, 1);
});
