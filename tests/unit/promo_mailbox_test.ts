import assert from "node:assert/strict";
import { mailboxOf } from "../../server/email/mailbox.ts";

Deno.test("one mailbox however it is spelled", () => {
  const same: [string, string][] = [
    ["eve@gmail.com", "eve@gmail.com"],
    ["  Eve@Gmail.COM ", "eve@gmail.com"],
    ["eve+promo@gmail.com", "eve@gmail.com"],
    ["e.v.e@gmail.com", "eve@gmail.com"],
    ["E.ve+1+2@googlemail.com", "eve@gmail.com"],
    ["ann+tag@example.com", "ann@example.com"],
    ["a.nn@example.com", "a.nn@example.com"],
  ];
  for (const [typed, mailbox] of same) assert.equal(mailboxOf(typed), mailbox, typed);
});

Deno.test("addresses a tag or a dot rule cannot shorten are kept as they are", () => {
  assert.equal(mailboxOf("+tag@example.com"), "+tag@example.com");
  assert.equal(mailboxOf("not-an-address"), "not-an-address");
  assert.equal(mailboxOf("a@b@example.com"), "a@b@example.com");
});
