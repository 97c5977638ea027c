/**
 * Back-in-stock mail goes only to a mailbox that asked for it: an address's first sign-up sends
 * one confirmation, alerts go only to confirmed addresses (or a signed-in shopper's own), and one
 * mailbox, however it is spelled, gets at most 3 confirmations a day whoever asks. Clients are
 * real connections from distinct loopback addresses.
 */
import assert from "node:assert/strict";
import { bearer, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { loopback, serveOnLoopback } from "../helpers/loopback.ts";
import { STARTER } from "../helpers/shop_fixtures.ts";
import {
  alertMails,
  confirmAddress,
  confirmationMails,
  confirmTokenIn,
} from "../helpers/stock_alerts.ts";
import { switchKey } from "../../shared/bom.ts";
import { setShelfCount } from "../../server/stock/store.ts";
import type { StockAlert } from "../../server/stock/back_in_stock/store.ts";
import { keys } from "../../server/kv/keys.ts";
import { migrate } from "../../server/ops/migrations.ts";
import { sendStockAlerts } from "../../server/stock/back_in_stock/alerts.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";

const SWITCH = STARTER.switchIds[0];
const DAY = 24 * 60 * 60_000;

function shelf(t: TestApp, stock: number) {
  return setShelfCount(t.kv, switchKey(SWITCH), { stock }, t.clock.now());
}

function testApp() {
  return createTestApp({ env: { PUBLIC_URL: "http://shop.test" } });
}

/** `victim+tag@gmail.com` and friends: one mailbox however spelled. */
function isVictim(address: string): boolean {
  const [name, domain] = address.toLowerCase().split("@");
  return ["gmail.com", "googlemail.com"].includes(domain) &&
    name.split("+")[0].replaceAll(".", "") === "victim";
}

Deno.test("80 spellings of one mailbox from 80 addresses: 3 confirmations, and no alert at all", async () => {
  await using t = await testApp();
  await shelf(t, 0);
  await using shop = serveOnLoopback(t.app);
  const spellings = Array.from({ length: 80 }, (_, i) =>
    [
      `victim+${i}@gmail.com`,
      `Vic.tim+${i}@googlemail.com`,
      `V.I.C.T.I.M+x${i}@Gmail.com`,
    ][i % 3]);
  const answers = [];
  for (let i = 0; i < spellings.length; i += 10) {
    answers.push(
      ...await Promise.all(
        spellings.slice(i, i + 10).map((email, k) =>
          shop.request("/api/stock-alerts", {
            from: loopback(0, 10 + i + k),
            method: "POST",
            body: { email, switchId: SWITCH },
          })
        ),
      ),
    );
  }
  assert.deepEqual(new Set(answers.map((a) => a.text)).size, 1, "every sign-up answers the same");
  assert.equal(answers[0].status, 200);
  assert.equal((await confirmationMails(t, isVictim)).length, 3);

  // Back in stock, sold out, back again: the unconfirmed sign-ups mail nobody.
  await shelf(t, 5);
  assert.equal((await alertMails(t, isVictim)).length, 0);
  await shelf(t, 0);
  await t.deliverEmails();
  await shelf(t, 5);
  assert.equal((await alertMails(t, isVictim)).length, 0);
  assert.equal((await confirmationMails(t, isVictim)).length, 3, "restocks send no confirmation");

  // A day later the mailbox may be asked again, up to 3 times.
  t.clock.advance(24 * 60 * 60_000 + 1);
  await shelf(t, 0);
  for (let i = 0; i < 5; i++) {
    await shop.request("/api/stock-alerts", {
      from: loopback(0, 100 + i),
      method: "POST",
      body: { email: `victim+day2-${i}@gmail.com`, switchId: SWITCH },
    });
  }
  assert.equal((await confirmationMails(t, isVictim)).length, 6);
});

Deno.test("a confirmed address hears of every return; an unconfirmed one never does", async () => {
  await using t = await testApp();
  await shelf(t, 0);
  await using shop = serveOnLoopback(t.app);
  for (const [n, email] of [[20, "ann@example.com"], [21, "bo@example.com"]] as const) {
    const res = await shop.request("/api/stock-alerts", {
      from: loopback(0, n),
      method: "POST",
      body: { email, switchId: SWITCH },
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.json, { ok: true, checkInbox: true });
  }
  const [ann] = await confirmationMails(t, (to) => to === "ann@example.com");
  assert.match(ann.subject, /confirm/i);
  assert.match(ann.text, /If it was not you, ignore this email/);
  assert.equal((await confirmationMails(t, (to) => to === "bo@example.com")).length, 1);
  await confirmAddress(t, "ann@example.com");

  await shelf(t, 5);
  assert.equal((await alertMails(t, (to) => to === "ann@example.com")).length, 1);
  assert.equal((await alertMails(t, (to) => to === "bo@example.com")).length, 0);
  await shelf(t, 0);
  await t.deliverEmails();
  await shelf(t, 3);
  assert.equal((await alertMails(t, (to) => to === "ann@example.com")).length, 2);
  assert.equal((await alertMails(t, (to) => to === "bo@example.com")).length, 0);

  // A confirmed address's next sign-up (by anyone but its signed-in owner) waits for a new
  // confirmation, sent once the hour since the last one is over.
  const other = STARTER.switchIds[1];
  await setShelfCount(t.kv, switchKey(other), { stock: 0 }, t.clock.now());
  t.clock.advance(60 * 60_000 + 1);
  await shop.request("/api/stock-alerts", {
    from: loopback(0, 22),
    method: "POST",
    body: { email: "ann@example.com", switchId: other },
  });
  assert.equal((await confirmationMails(t, (to) => to === "ann@example.com")).length, 2);
  await setShelfCount(t.kv, switchKey(other), { stock: 4 }, t.clock.now());
  assert.equal((await alertMails(t, (to) => to === "ann@example.com")).length, 2);
  await confirmAddress(t, "ann@example.com");
  assert.equal((await alertMails(t, (to) => to === "ann@example.com")).length, 3);
});

Deno.test("an address asking twice before confirming gets one confirmation, which confirms both", async () => {
  await using t = await testApp();
  const other = STARTER.switchIds[1];
  await shelf(t, 0);
  await setShelfCount(t.kv, switchKey(other), { stock: 0 }, t.clock.now());
  await using shop = serveOnLoopback(t.app);
  for (const id of [SWITCH, other]) {
    await shop.request("/api/stock-alerts", {
      from: loopback(0, 23),
      method: "POST",
      body: { email: "cy@example.com", switchId: id },
    });
  }
  assert.equal((await confirmationMails(t, (to) => to === "cy@example.com")).length, 1);
  await confirmAddress(t, "cy@example.com");
  await shelf(t, 2);
  await setShelfCount(t.kv, switchKey(other), { stock: 2 }, t.clock.now());
  assert.equal((await alertMails(t, (to) => to === "cy@example.com")).length, 2);
});

Deno.test("a switch back before the address confirmed is told once it is confirmed", async () => {
  await using t = await testApp();
  await shelf(t, 0);
  await using shop = serveOnLoopback(t.app);
  await shop.request("/api/stock-alerts", {
    from: loopback(0, 24),
    method: "POST",
    body: { email: "dee@example.com", switchId: SWITCH },
  });
  await shelf(t, 5);
  assert.equal((await alertMails(t, (to) => to === "dee@example.com")).length, 0);
  await confirmAddress(t, "dee@example.com");
  assert.equal((await alertMails(t, (to) => to === "dee@example.com")).length, 1);
});

Deno.test("a signed-in shopper asking for their own address needs no confirmation", async () => {
  await using t = await testApp();
  await shelf(t, 0);
  await using shop = serveOnLoopback(t.app);
  const registered = await shop.request("/auth/register", {
    from: loopback(0, 30),
    method: "POST",
    body: { email: "eve@example.com", password: "The-Right-Password-1" },
  });
  assert.equal(registered.status, 201, registered.text);
  const login = await shop.request("/auth/login", {
    from: loopback(0, 30),
    method: "POST",
    body: { email: "eve@example.com", password: "The-Right-Password-1" },
  });
  const headers = bearer(login.json.token);
  const own = await shop.request("/api/stock-alerts", {
    from: loopback(0, 30),
    method: "POST",
    headers,
    body: { email: "Eve@Example.com", switchId: SWITCH },
  });
  assert.deepEqual(own.json, { ok: true, checkInbox: false });
  // Another address, even signed in, must confirm.
  const friend = await shop.request("/api/stock-alerts", {
    from: loopback(0, 30),
    method: "POST",
    headers,
    body: { email: "friend@example.com", switchId: SWITCH },
  });
  assert.deepEqual(friend.json, { ok: true, checkInbox: true });
  assert.equal((await confirmationMails(t, (to) => to === "eve@example.com")).length, 0);
  assert.equal((await confirmationMails(t, (to) => to === "friend@example.com")).length, 1);

  await shelf(t, 5);
  assert.equal((await alertMails(t, (to) => to === "eve@example.com")).length, 1);
  assert.equal((await alertMails(t, (to) => to === "friend@example.com")).length, 0);
});

Deno.test("the confirmation page asks; its button confirms; bad, used and expired links say so", async () => {
  await using t = await testApp();
  await shelf(t, 0);
  await t.request("/api/stock-alerts", {
    method: "POST",
    body: { email: "fay@example.com", switchId: SWITCH },
    client: "127.0.0.40",
  });
  const [mail] = await confirmationMails(t, (to) => to === "fay@example.com");
  const token = confirmTokenIn(mail)!;
  assert.ok(mail.text.includes(`http://shop.test/stock-alerts/confirm?token=${token}`));

  const page = await t.request(`/stock-alerts/confirm?token=${token}`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get("Content-Type")!, /text\/html/);
  assert.match(page.headers.get("Cache-Control")!, /no-store/);
  assert.match(page.text, /<form method="post" action="\/stock-alerts\/confirm\?token=/);
  assert.match(page.text, /<button type="submit">Confirm<\/button>/);
  await shelf(t, 5);
  assert.equal(
    (await alertMails(t, (to) => to === "fay@example.com")).length,
    0,
    "opening the page (a mail scanner's GET) confirms nothing",
  );
  await shelf(t, 0);
  await t.deliverEmails();

  const confirmed = await t.request(`/stock-alerts/confirm?token=${token}`, { method: "POST" });
  assert.equal(confirmed.status, 200);
  assert.match(confirmed.text, /Confirmed/);
  const used = await t.request(`/stock-alerts/confirm?token=${token}`, { method: "POST" });
  assert.equal(used.status, 404);
  assert.match(used.text, /expired or was already used/);
  assert.equal((await t.request(`/stock-alerts/confirm?token=${token}`)).status, 404);

  const unknown = await t.request("/stock-alerts/confirm?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", {
    method: "POST",
  });
  assert.equal(unknown.status, 404);
  assert.match(unknown.text, /expired or was already used/);
  for (const query of ["", "?token=", "?token=%3Cscript%3E"]) {
    const bad = await t.request(`/stock-alerts/confirm${query}`, { method: "POST" });
    assert.equal(bad.status, 400, query);
    assert.match(bad.json.error, /confirmation link/);
  }

  // A link not used within 7 days no longer works.
  await t.request("/api/stock-alerts", {
    method: "POST",
    body: { email: "gus@example.com", switchId: SWITCH },
    client: "127.0.0.41",
  });
  const [late] = await confirmationMails(t, (to) => to === "gus@example.com");
  t.clock.advance(7 * 24 * 60 * 60_000 + 1);
  const expired = await t.request(`/stock-alerts/confirm?token=${confirmTokenIn(late)}`, {
    method: "POST",
  });
  assert.equal(expired.status, 404);
});

Deno.test("sign-ups from before confirmations: a shopper's stay; a mailbox under many spellings is held back", async () => {
  await using t = await testApp();
  await shelf(t, 0);
  // As a store from before: sign-ups in force without confirmation, and no migration marker.
  const legacy = (email: string, i: number): StockAlert => ({
    subject: `switch:${SWITCH}`,
    email,
    token: `legacytoken${i}legacytoken`,
    origin: "http://shop.test",
    createdAt: t.clock.now() - 60_000,
    notified: false,
  });
  const emails = [
    "ann@example.com",
    "bo+shop@example.com",
    ...Array.from({ length: 5 }, (_, i) => `victim+${i}@gmail.com`),
    "v.ictim@gmail.com",
  ];
  for (const [i, email] of emails.entries()) {
    const alert = legacy(email, i);
    await t.kv.set(keys.stockAlert(alert.subject, email), alert);
    await t.kv.set(keys.stockAlertToken(alert.token), { subject: alert.subject, email });
  }
  await t.kv.delete(keys.migration("8-stock-alert-spellings"));
  await migrate(t.kv, t.clock);

  await shelf(t, 5);
  assert.equal((await alertMails(t, (to) => to === "ann@example.com")).length, 1);
  assert.equal((await alertMails(t, (to) => to === "bo+shop@example.com")).length, 1);
  assert.equal((await alertMails(t, isVictim)).length, 0);
  assert.equal((await confirmationMails(t, isVictim)).length, 0, "nobody is mailed to confirm");
});

Deno.test("a stranger signing a confirmed address up for 39 more switches gets it no alert for them until it confirms again", async () => {
  await using t = await testApp();
  const ids = SWITCHES.slice(0, 40).map((s) => s.id);
  for (const id of ids) await setShelfCount(t.kv, switchKey(id), { stock: 0 }, t.clock.now());
  await using shop = serveOnLoopback(t.app);
  const victim = (to: string) => to === "vic@example.com";
  const own = await shop.request("/api/stock-alerts", {
    from: loopback(0, 50),
    method: "POST",
    body: { email: "vic@example.com", switchId: ids[0] },
  });
  assert.equal(own.status, 200, own.text);
  await confirmAddress(t, "vic@example.com");

  // The stranger, from four other addresses, ten at a time.
  const rest = ids.slice(1);
  const answers = [];
  for (let i = 0; i < rest.length; i += 10) {
    answers.push(
      ...await Promise.all(
        rest.slice(i, i + 10).map((switchId, k) =>
          shop.request("/api/stock-alerts", {
            from: loopback(0, 60 + ((i + k) % 4)),
            method: "POST",
            body: { email: "vic@example.com", switchId },
          })
        ),
      ),
    );
  }
  assert.deepEqual(answers.map((a) => a.status), rest.map(() => 200));
  assert.deepEqual(new Set(answers.map((a) => a.text)).size, 1, "every sign-up answers the same");
  // The address's confirmation was sent within the hour: no other yet.
  assert.equal((await confirmationMails(t, victim)).length, 1);

  for (const id of ids) await setShelfCount(t.kv, switchKey(id), { stock: 5 }, t.clock.now());
  assert.equal((await alertMails(t, victim)).length, 1, "only the switch the victim confirmed");
  assert.equal((await confirmationMails(t, victim)).length, 1, "a restock sends no confirmation");

  // An hour later the owner asks again; the newest link confirms every sign-up waiting then.
  t.clock.advance(60 * 60_000 + 1);
  await shop.request("/api/stock-alerts", {
    from: loopback(0, 50),
    method: "POST",
    body: { email: "vic@example.com", switchId: ids[1] },
  });
  assert.equal((await confirmationMails(t, victim)).length, 2);
  assert.equal((await alertMails(t, victim)).length, 1);
  await confirmAddress(t, "vic@example.com");
  assert.equal((await alertMails(t, victim)).length, 40);
});

Deno.test("asking again before a week is out keeps the sign-up: the new link confirms it and the alert comes", async () => {
  await using t = await testApp();
  await shelf(t, 0);
  const hal = (to: string) => to === "hal@example.com";
  const ask = () =>
    t.request("/api/stock-alerts", {
      method: "POST",
      body: { email: "hal@example.com", switchId: SWITCH },
      client: "127.0.0.42",
    });
  assert.equal((await ask()).status, 200);
  assert.equal((await confirmationMails(t, hal)).length, 1);
  // 6.9 days later the first link is about to expire: asking again sends a new one.
  t.clock.advance(6.9 * DAY);
  assert.equal((await ask()).status, 200);
  assert.equal((await confirmationMails(t, hal)).length, 2);
  // A check after day 7 must not drop the sign-up the new link stands for.
  t.clock.advance(0.2 * DAY);
  await sendStockAlerts(t);
  await confirmAddress(t, "hal@example.com");
  await shelf(t, 5);
  assert.equal((await alertMails(t, hal)).length, 1);
});

Deno.test("records from before rounds: what a confirmed address was waiting for stays in force, nothing later is", async () => {
  await using t = await testApp();
  await shelf(t, 0);
  const other = STARTER.switchIds[1];
  await setShelfCount(t.kv, switchKey(other), { stock: 0 }, t.clock.now());
  const now = t.clock.now();
  // As the store was: a confirmed address's held sign-up, an unconfirmed one's with a live link.
  const legacy = (email: string, i: number) => ({
    subject: `switch:${SWITCH}`,
    email,
    token: `roundtoken${i}roundtoken`,
    origin: "http://shop.test",
    createdAt: now - 60_000,
    notified: false,
    pending: true,
  });
  for (const [i, email] of ["old@example.com", "new@example.com"].entries()) {
    const alert = legacy(email, i);
    await t.kv.set(keys.stockAlert(alert.subject, email), alert);
    await t.kv.set(keys.stockAlertToken(alert.token), { subject: alert.subject, email });
  }
  await t.kv.set(keys.stockAlertAddress("old@example.com"), {
    confirmedAt: now - 30_000,
    lastSentAt: now - 2 * 60 * 60_000,
  });
  await t.kv.set(keys.stockAlertAddress("new@example.com"), {
    confirmedAt: null,
    lastSentAt: now - 60_000,
  });
  const oldLink = "AAAAoldlinkAAAAoldlinkAAAA";
  await t.kv.set(keys.stockAlertConfirm(oldLink), {
    email: "new@example.com",
    expiresAt: now + 7 * DAY - 60_000,
  });
  await t.kv.delete(keys.migration("9-stock-alert-rounds"));
  await migrate(t.kv, t.clock);

  // A stranger signs the confirmed address up for another switch: it waits.
  await using shop = serveOnLoopback(t.app);
  await shop.request("/api/stock-alerts", {
    from: loopback(0, 70),
    method: "POST",
    body: { email: "old@example.com", switchId: other },
  });
  await shelf(t, 5);
  await setShelfCount(t.kv, switchKey(other), { stock: 5 }, t.clock.now());
  assert.equal((await alertMails(t, (to) => to === "old@example.com")).length, 1);
  assert.equal((await alertMails(t, (to) => to === "new@example.com")).length, 0);
  // The unconfirmed address's old link still works, and its sign-up waited for it.
  assert.equal((await confirmationMails(t, (to) => to === "new@example.com")).length, 0);
  const res = await t.request(`/stock-alerts/confirm?token=${oldLink}`, { method: "POST" });
  assert.equal(res.status, 200, res.text);
  assert.equal((await alertMails(t, (to) => to === "new@example.com")).length, 1);
  assert.equal((await alertMails(t, (to) => to === "old@example.com")).length, 1);
});
