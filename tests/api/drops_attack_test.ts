/**
 * A drop as a script writer plays it: one connection taking many places to win the draw more
 * often, one door spelled many ways to buy more than the limit.
 */
import assert from "node:assert/strict";
import { ROOM_OPENS_BEFORE_MS } from "../../server/drops/record.ts";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { loopback, serveOnLoopback } from "../helpers/loopback.ts";
import { admissionRanks, OPENS_AT, scheduleTestDrop } from "../helpers/drop_room.ts";
import { ledgerOf, placeFor, scheduleDrop } from "../helpers/drop_fixtures.ts";
import { STARTER, US_ADDRESS } from "../helpers/shop_fixtures.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { COMPONENTS, switchKey } from "../../shared/bom.ts";

const ROOM_OPENS = OPENS_AT - ROOM_OPENS_BEFORE_MS;

Deno.test("ten places from one connection are one draw at the opening, not ten", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t, { units: 1, perPersonLimit: 1 });
  await using server = serveOnLoopback(t.app);
  t.clock.set(ROOM_OPENS);
  const script = loopback(6, 1);
  const places: { ticket: string; cartId: string; from: string }[] = [];
  // The script takes its ten places (ten guest carts) first, then 40 shoppers one place each.
  for (let i = 0; i < 10; i++) {
    const res = await server.request(`/api/drops/${id}/join`, { from: script, method: "POST" });
    assert.equal(res.status, 200, res.text);
    places.push({ ...res.json, from: script });
    t.clock.advance(1_000);
  }
  for (let i = 1; i <= 40; i++) {
    const from = loopback(7, i);
    const res = await server.request(`/api/drops/${id}/join`, { from, method: "POST" });
    assert.equal(res.status, 200, res.text);
    places.push({ ...res.json, from });
    t.clock.advance(1_000);
  }
  t.clock.set(OPENS_AT + 1_000);
  const rank = await admissionRanks(server, id, places);
  assert.deepEqual([...rank].sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i));
  // One of the script's places is drawn among the 41 connections; the other nine come after
  // every connection's first place, so the script wins the opening as often as anyone else.
  const scripts = rank.slice(0, 10).sort((a, b) => a - b);
  assert.deepEqual(scripts.slice(1), Array.from({ length: 9 }, (_, i) => 41 + i), `${scripts}`);
});

/** Plenty of every part, so only the drop limits what sells. */
async function stockUp(t: TestApp) {
  const switches = new Set([...STARTER.switchIds, ...PACKS[1].switchIds]);
  for (const key of [...COMPONENTS, ...[...switches].map(switchKey)]) {
    await t.writeStock(key, { stock: 10_000, reserved: 0, used: 0 });
  }
}

Deno.test("one door spelled five ways (apartment in the street, full-width, lookalike letters, ZIP+4) is one address to the limit", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { perPersonLimit: 1 });
  await using server = serveOnLoopback(t.app);
  // Each spelling from its own connection with its own mailbox: only the door is shared.
  const spellings = [
    US_ADDRESS,
    { ...US_ADDRESS, street: "1 Main St 2B", apartment: "" },
    {
      ...US_ADDRESS,
      street: "\uff11 \uff2d\uff41\uff49\uff4e \uff33\uff54",
      apartment: "\uff12\uff22",
    },
    { ...US_ADDRESS, street: "1 \u041cain St", apartment: "2\u0412" },
    { ...US_ADDRESS, zipCode: "62701-4321" },
  ];
  const answers = [];
  for (const [i, address] of spellings.entries()) {
    const from = loopback(8, i + 1);
    const cart = await server.request(`/api/cart/add?itemId=${PACKS[1].id}`, {
      from,
      method: "POST",
    });
    assert.equal(cart.status, 200, cart.text);
    const cartId = cart.json.id;
    const ticket = await placeFor(t, drop, `cart:${cartId}`);
    const added = await server.request(
      `/api/cart/add?itemId=${STARTER.id}&cartId=${cartId}&ticket=${ticket}`,
      { from, method: "POST" },
    );
    assert.equal(added.status, 200, added.text);
    const res = await server.request("/api/orders/create", {
      from,
      method: "POST",
      body: {
        cartId,
        email: `shopper${i}@example${i}.com`,
        customerName: "Ann Example",
        shippingAddress: address,
      },
    });
    answers.push(`${res.status} ${res.json.error ?? ""}`);
  }
  assert.deepEqual(answers, [
    "200 ",
    ...Array(4).fill("409 The drop allows 1 per person; you have 1 held or bought"),
  ]);
  assert.deepEqual(await ledgerOf(t, drop), { holding: 1, sold: 0 });
});

Deno.test("two places taken from one connection cannot buy twice by checking one out through another connection", async () => {
  await using t = await createTestApp();
  await stockUp(t);
  const drop = await scheduleDrop(t, { units: 10, perPersonLimit: 2 });
  await using server = serveOnLoopback(t.app);
  const home = loopback(9, 1);
  const proxy = loopback(9, 2);
  // Two guest places from one connection, both let in at once (10 units, 2 each: 5 turns).
  const carts = [];
  for (let i = 0; i < 2; i++) {
    const joined = await server.request(`/api/drops/${drop.id}/join`, {
      from: home,
      method: "POST",
    });
    assert.equal(joined.status, 200, joined.text);
    const { ticket, cartId } = joined.json;
    // The room is read again at most once a second.
    t.clock.advance(1_000);
    const polled = await server.request(
      `/api/drops/${drop.id}/tickets/${ticket}?cartId=${cartId}`,
      {
        from: home,
      },
    );
    assert.equal(polled.json.state, "admitted", polled.text);
    const added = await server.request(
      `/api/cart/add?itemId=${STARTER.id}&quantity=2&cartId=${cartId}&ticket=${ticket}`,
      { from: home, method: "POST" },
    );
    assert.equal(added.status, 200, added.text);
    carts.push(cartId);
  }
  const checkout = (cartId: string, from: string, n: number) =>
    server.request("/api/orders/create", {
      from,
      method: "POST",
      body: {
        cartId,
        email: `someone${n}@example${n}.com`,
        customerName: "Ann Example",
        shippingAddress: { ...US_ADDRESS, street: `${n} Elm St`, zipCode: `6270${n}` },
      },
    });
  assert.equal((await checkout(carts[0], home, 1)).status, 200);
  // The second place checks out through another connection, with another mailbox and door: the
  // place's own network is still the same person.
  const second = await checkout(carts[1], proxy, 2);
  assert.equal(second.status, 409, second.text);
  assert.equal(second.json.error, "The drop allows 2 per person; you have 2 held or bought");
  assert.deepEqual(await ledgerOf(t, drop), { holding: 2, sold: 0 });
});

Deno.test("polling a place with made-up carts is refused without a KV write per poll", async () => {
  const calls = { writes: 0 };
  const memory = await Deno.openKv(":memory:");
  // Writes on the store are counted, so what a refused poll costs is measured.
  const counted = new Proxy(memory, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (name === "atomic" || name === "set" || name === "delete") calls.writes++;
        return value.apply(target, args);
      };
    },
  });
  await using t = await createTestApp({ kv: counted });
  try {
    const id = await scheduleTestDrop(t, { units: 10, perPersonLimit: 2 });
    t.clock.set(ROOM_OPENS);
    const joined = await t.request(`/api/drops/${id}/join`, {
      method: "POST",
      client: "192.0.2.1",
    });
    assert.equal(joined.status, 200, joined.text);
    const ticket = joined.json.ticket;
    const before = calls.writes;
    // A script polls a place it knows (its own, or one seen on a screen) with 200 made-up carts.
    for (let i = 0; i < 200; i++) {
      const res = await t.request(`/api/drops/${id}/tickets/${ticket}?cartId=made-up-cart-${i}`);
      assert.equal(res.status, 403);
      assert.equal(res.json.error, "This place in line belongs to another shopper");
    }
    assert.ok(calls.writes - before <= 3, `${calls.writes - before} writes for 200 refused polls`);
    const view = await t.request(`/api/admin/drops/${id}`, {
      headers: { Cookie: await adminCookie(t) },
    });
    assert.ok(view.json.refused["transferred ticket"] >= 1, "the owner still sees it");
  } finally {
    memory.close();
  }
});

Deno.test("'Email me when it opens' tells a stranger nothing about whether an address signed up", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t);
  const account = { email: "cy@example.com", password: "Sw1tchesRule" };
  assert.equal((await t.request("/auth/register", { method: "POST", body: account })).status, 201);
  const token = (await t.request("/auth/login", { method: "POST", body: account })).json.token;
  const notify = (email: string, headers = {}) =>
    t.request(`/api/drops/${id}/notify`, { method: "POST", body: { email }, headers });
  // Cy signs up her own address (confirmed at once).
  const own = await notify("cy@example.com", { Authorization: `Bearer ${token}` });
  assert.deepEqual(own.json, { ok: true, checkInbox: false });
  // A stranger probing Cy's address hears what an address nobody signed up hears.
  const probed = await notify("cy@example.com");
  const unknown = await notify("nobody@example.com");
  assert.equal(probed.status, unknown.status);
  assert.deepEqual(probed.json, unknown.json);
});

Deno.test("one IPv6 site's /64s take at most DROP_JOINS_PER_BLOCK places; another site still joins", async () => {
  const proxy = "127.0.0.2";
  await using t = await createTestApp({
    env: { TRUSTED_PROXIES: proxy, DROP_JOINS_PER_BLOCK: "20" },
  });
  const id = await scheduleTestDrop(t);
  await using server = serveOnLoopback(t.app);
  t.clock.set(ROOM_OPENS);
  const join = (address: string) =>
    server.request(`/api/drops/${id}/join`, {
      from: proxy,
      method: "POST",
      headers: { "X-Forwarded-For": address },
    });
  // A host with a /48 is 65,536 networks of /64: one place from each of 21 of them.
  const answers = [];
  for (let i = 1; i <= 21; i++) {
    answers.push((await join(`2001:db8:7:${i.toString(16)}::1`)).status);
  }
  assert.deepEqual(answers, [...Array(20).fill(200), 429]);
  assert.equal((await join("2001:db8:8:1::1")).status, 200, "another /48 is another site");
});
