/**
 * A drop's waiting room: joining (when, who, how often), the place's answer, the random order of
 * the first window, admissions sized to the room, sold out reaching everyone, places that cannot
 * be handed on, and what a poll costs with thousands waiting.
 */
import assert from "node:assert/strict";
import { ROOM_OPENS_BEFORE_MS, type TicketRecord } from "../../server/drops/record.ts";
import { keys } from "../../server/kv/keys.ts";
import { type AdmissionCount, admit } from "../../server/drops/admission.ts";
import { adminCookie, createTestApp, type TestApp } from "../helpers/test_app.ts";
import { loopback, serveOnLoopback } from "../helpers/loopback.ts";
import {
  admissionRanks,
  holdFor,
  OPENS_AT,
  scheduleTestDrop,
  setLedger,
  storedTicket,
} from "../helpers/drop_room.ts";

const MINUTE = 60_000;
const ROOM_OPENS = OPENS_AT - ROOM_OPENS_BEFORE_MS;

/** Joins as a guest with `cartId` (or none) from `client`. */
async function join(t: TestApp, dropId: string, cartId?: string, client = "192.0.2.1") {
  return await t.request(`/api/drops/${dropId}/join`, {
    method: "POST",
    client,
    ...(cartId ? { body: { cartId } } : {}),
  });
}

/** A guest's place: joins without a cart and answers the ticket and the new cart. */
async function guestPlace(t: TestApp, dropId: string, client = "192.0.2.1") {
  const res = await join(t, dropId, undefined, client);
  assert.equal(res.status, 200, res.text);
  return { ticket: res.json.ticket as string, cartId: res.json.cartId as string };
}

async function poll(t: TestApp, dropId: string, place: { ticket: string; cartId: string }) {
  return await t.request(`/api/drops/${dropId}/tickets/${place.ticket}?cartId=${place.cartId}`);
}

async function signedIn(t: TestApp, email: string): Promise<string> {
  const account = { email, password: "Sw1tchesRule" };
  assert.equal((await t.request("/auth/register", { method: "POST", body: account })).status, 201);
  const res = await t.request("/auth/login", { method: "POST", body: account });
  assert.equal(res.status, 200, res.text);
  return res.json.token;
}

/** Spearman's rank correlation of two rankings of the same items (no ties). */
function spearman(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  const d2 = a.reduce((sum, x, i) => sum + (x - b[i]) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

Deno.test("joining: not before the room opens; a guest without a cart gets an empty one; joining again is the same place", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t);
  const early = await join(t, id);
  assert.equal(early.status, 409, early.text);
  assert.match(early.json.error, /The waiting room opens at .*two minutes before the drop/);
  t.clock.set(ROOM_OPENS);
  const first = await join(t, id);
  assert.equal(first.status, 200, first.text);
  assert.equal(first.json.state, "waiting");
  assert.match(first.json.ticket, /^[A-Za-z0-9_-]{22}$/, "128 random bits");
  const cart = await t.request(`/api/cart/${first.json.cartId}`);
  assert.equal(cart.status, 200, "the new cart answers like any cart");
  assert.deepEqual(cart.json.items, []);
  // Again, and five at once: the place belongs to the cart, not the tab.
  const again = await Promise.all(
    Array.from({ length: 5 }, () => join(t, id, first.json.cartId)),
  );
  for (const res of again) {
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.ticket, first.json.ticket);
    assert.equal(res.json.cartId, first.json.cartId);
  }
  const byQuery = await t.request(`/api/drops/${id}/join?cartId=${first.json.cartId}`, {
    method: "POST",
    client: "192.0.2.1",
  });
  assert.equal(byQuery.json.ticket, first.json.ticket, "the cart in the query");
  let tickets = 0;
  for await (const _ of t.kv.list({ prefix: keys.dropTickets(id) })) tickets++;
  assert.equal(tickets, 1);
  const answer = await poll(t, id, { ticket: first.json.ticket, cartId: first.json.cartId });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json.state, "waiting");
  assert.equal(answer.json.drawAtOpening, true, "no place before the draw at the opening");
  assert.equal(answer.json.position, undefined);
  assert.equal(answer.json.serverTime, new Date(ROOM_OPENS).toISOString());
  assert.equal(answer.json.opensAt, new Date(OPENS_AT).toISOString());
  assert.equal(
    (await t.request(`/api/drops/${id}/join`, { method: "POST", body: "x" })).status,
    415,
  );
  assert.equal((await t.request("/api/drops/nosuchdrop/join", { method: "POST" })).status, 404);
});

Deno.test("joining: a signed-in-only drop refuses guests; an account's place follows its session", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t, { signedInOnly: true });
  t.clock.set(ROOM_OPENS);
  const guest = await join(t, id);
  assert.equal(guest.status, 401, guest.text);
  assert.match(guest.json.error, /signed-in shoppers only/);
  const token = await signedIn(t, "ada@example.com");
  const res = await t.request(`/api/drops/${id}/join`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
  });
  assert.equal(res.status, 200, res.text);
  const record = await storedTicket(t, id, res.json.ticket);
  assert.match(record.holder, /^user:/);
  const mine = await t.request(`/api/drops/${id}/tickets/${res.json.ticket}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  assert.equal(mine.status, 200, mine.text);
  const other = await signedIn(t, "eve@example.com");
  const theirs = await t.request(`/api/drops/${id}/tickets/${res.json.ticket}`, {
    headers: { Authorization: `Bearer ${other}` },
  });
  assert.equal(theirs.status, 403);
  const again = await t.request(`/api/drops/${id}/join`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
  });
  assert.equal(again.json.ticket, res.json.ticket, "the same place from another device");
});

Deno.test("a place polled with another cart is refused as transferred, and counted for the owner", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t);
  t.clock.set(ROOM_OPENS);
  const place = await guestPlace(t, id);
  const other = await guestPlace(t, id, "192.0.2.2");
  const stolen = await poll(t, id, { ticket: place.ticket, cartId: other.cartId });
  assert.equal(stolen.status, 403);
  assert.equal(stolen.json.error, "This place in line belongs to another shopper");
  const bare = await t.request(`/api/drops/${id}/tickets/${place.ticket}`);
  assert.equal(bare.status, 403, "no cart, no session: not the holder");
  const made = await t.request(`/api/drops/${id}/tickets/AAAAAAAAAAAAAAAAAAAAAA?cartId=x`);
  assert.equal(made.status, 404, "a ticket nobody was given");
  assert.equal((await t.request(`/api/drops/${id}/tickets/short`)).status, 400);
  const view = await t.request(`/api/admin/drops/${id}`, {
    headers: { Cookie: await adminCookie(t) },
  });
  assert.deepEqual(view.json.refused, { "transferred ticket": 2 });
});

Deno.test("joins are limited per client network (real sockets, distinct loopback addresses)", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t);
  t.clock.set(ROOM_OPENS);
  await using server = serveOnLoopback(t.app);
  const from = loopback(3, 1);
  const answers = [];
  // Bounded: one client's eleven joins one after another, each a new guest cart.
  for (let i = 0; i < 11; i++) {
    answers.push(await server.request(`/api/drops/${id}/join`, { from, method: "POST" }));
  }
  assert.deepEqual(answers.map((a) => a.status), [...Array(10).fill(200), 429]);
  assert.match(answers[10].json.error, /Too many places in line/);
  assert.ok(Number(answers[10].headers.get("Retry-After")) > 0);
  const neighbour = await server.request(`/api/drops/${id}/join`, {
    from: loopback(3, 2),
    method: "POST",
  });
  assert.equal(neighbour.status, 200, "another address is another client");
  const view = await t.request(`/api/admin/drops/${id}`, {
    headers: { Cookie: await adminCookie(t) },
  });
  assert.equal(view.json.refused["join limit"], 1);
  assert.equal(view.json.waiting, 11);
});

Deno.test("joining again with the same cart (reloads, tabs) answers the same place and costs no join", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t);
  t.clock.set(ROOM_OPENS);
  await using server = serveOnLoopback(t.app);
  const from = loopback(6, 1);
  const first = await server.request(`/api/drops/${id}/join`, { from, method: "POST" });
  assert.equal(first.status, 200, first.text);
  for (let i = 0; i < 12; i++) {
    const again = await server.request(`/api/drops/${id}/join`, {
      from,
      body: { cartId: first.json.cartId },
    });
    assert.equal(again.status, 200, `reload ${i + 1}: ${again.text}`);
    assert.equal(again.json.ticket, first.json.ticket);
  }
  // The client's nine other joins are still its own.
  for (let i = 0; i < 9; i++) {
    const other = await server.request(`/api/drops/${id}/join`, { from, method: "POST" });
    assert.equal(other.status, 200, other.text);
  }
  assert.equal(
    (await server.request(`/api/drops/${id}/join`, { from, method: "POST" })).status,
    429,
  );
});

Deno.test("the opening draws the first window at random; later arrivals queue behind in arrival order", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t, { units: 1, perPersonLimit: 1 });
  await using server = serveOnLoopback(t.app);
  t.clock.set(ROOM_OPENS);
  const places: { ticket: string; cartId: string; from: string }[] = [];
  // 60 shoppers in the first window, one after another, a known order, each from its own address.
  for (let i = 1; i <= 60; i++) {
    const from = loopback(4, i);
    const res = await server.request(`/api/drops/${id}/join`, { from, method: "POST" });
    assert.equal(res.status, 200, res.text);
    places.push({ ...res.json, from });
    t.clock.advance(2_000);
  }
  t.clock.set(OPENS_AT + 31_000);
  for (let i = 1; i <= 10; i++) {
    const from = loopback(5, i);
    const res = await server.request(`/api/drops/${id}/join`, { from, method: "POST" });
    places.push({ ...res.json, from });
    t.clock.advance(1_000);
  }
  t.clock.advance(1_000);
  // Each place's rank in the admission order: the one let in first, then by position.
  const rank = await admissionRanks(server, id, places);
  assert.deepEqual([...rank].sort((a, b) => a - b), Array.from({ length: 70 }, (_, i) => i));
  const early = rank.slice(0, 60);
  const arrival = early.map((_, i) => i);
  const rho = spearman(arrival, early);
  assert.ok(Math.abs(rho) < 0.5, `rank correlation of arrival and admission: ${rho.toFixed(3)}`);
  assert.notDeepEqual(early, arrival, "not the arrival order");
  assert.deepEqual(rank.slice(60), Array.from({ length: 10 }, (_, i) => 60 + i));
});

Deno.test("admission fills the room: units over the limit, checkouts taking room, lapsed places passing it on, sold out reaching everyone", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t, { units: 5, perPersonLimit: 2, holdMinutes: 10 });
  t.clock.set(ROOM_OPENS);
  const places: { ticket: string; cartId: string }[] = [];
  for (let i = 1; i <= 8; i++) places.push(await guestPlace(t, id, `192.0.2.${i}`));
  const states = async () => {
    // deno-lint-ignore no-explicit-any
    const found: any[] = [];
    for (const place of places) found.push((await poll(t, id, place)).json);
    return found;
  };
  t.clock.set(OPENS_AT - 1);
  assert.ok((await states()).every((a) => a.state === "waiting"), "nobody before the opening");
  t.clock.set(OPENS_AT);
  let now = await states();
  // 5 units, 2 each: 3 places let in.
  const admitted = now.filter((a) => a.state === "admitted");
  assert.equal(admitted.length, 3);
  assert.equal(admitted[0].admittedAt, new Date(OPENS_AT).toISOString());
  assert.equal(admitted[0].admittedUntil, new Date(OPENS_AT + 10 * MINUTE).toISOString());
  assert.deepEqual(
    now.filter((a) => a.state === "waiting").map((a) => a.position).sort(),
    [1, 2, 3, 4, 5],
  );
  const inside = places.filter((_, i) => now[i].state === "admitted");
  // Two of them check out for 2 each (the purchase's write): 1 unit left, already spoken for.
  await holdFor(t, id, inside[0].ticket, 2);
  await holdFor(t, id, inside[1].ticket, 2);
  t.clock.advance(1_000);
  now = await states();
  assert.equal(now.filter((a) => a.state === "admitted").length, 3, "no room for more");
  // The third lets its admission lapse unused: its room goes to the next in line at once.
  t.clock.set(OPENS_AT + 10 * MINUTE);
  now = await states();
  const third = places.indexOf(inside[2]);
  assert.equal(now[third].state, "expired");
  assert.equal(now.filter((a) => a.state === "admitted").length, 3, "two bought, one new");
  // The two holds sell and the last unit too: every place still waiting is told at once.
  await setLedger(t, id, { holding: 0, sold: 5 });
  t.clock.advance(1_000);
  now = await states();
  const waitingBefore = places.filter((_, i) => !inside.slice(0, 2).includes(places[i]));
  for (const place of waitingBefore) {
    assert.equal(now[places.indexOf(place)].state, "soldOut");
  }
  assert.equal(now[places.indexOf(inside[0])].state, "admitted", "a buyer keeps their answer");
  const late = await join(t, id, undefined, "192.0.2.99");
  assert.equal(late.status, 409);
  assert.match(late.json.error, /sold out/);
});

Deno.test("a join after the opening lets the first places in even while nobody polls", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t, { units: 4, perPersonLimit: 2 });
  t.clock.set(ROOM_OPENS);
  for (let i = 1; i <= 3; i++) await guestPlace(t, id, `192.0.2.${i}`);
  t.clock.set(OPENS_AT + 5_000);
  await guestPlace(t, id, "192.0.2.9");
  const view = await t.request(`/api/admin/drops/${id}`, {
    headers: { Cookie: await adminCookie(t) },
  });
  assert.equal(view.json.admitted, 2, "4 units, 2 each");
  assert.equal(view.json.waiting, 2);
});

Deno.test("a drop called off: every place is told it ended, and nobody joins", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t);
  t.clock.set(ROOM_OPENS);
  const place = await guestPlace(t, id);
  const off = await t.request(`/api/admin/drops/${id}`, {
    method: "DELETE",
    headers: { Cookie: await adminCookie(t) },
  });
  assert.equal(off.status, 200, off.text);
  t.clock.advance(1_000);
  const answer = await poll(t, id, place);
  assert.equal(answer.json.state, "soldOut");
  assert.equal(answer.json.cancelled, true);
  const res = await join(t, id, undefined, "192.0.2.7");
  assert.equal(res.status, 409);
  assert.match(res.json.error, /called off/);
});

Deno.test("an admission planned from a read another isolate has overtaken is refused", async () => {
  await using t = await createTestApp();
  const id = await scheduleTestDrop(t, { units: 6, perPersonLimit: 2 });
  t.clock.set(ROOM_OPENS);
  const places: { ticket: string; cartId: string }[] = [];
  for (let i = 1; i <= 9; i++) places.push(await guestPlace(t, id, `192.0.2.${i}`));
  // The slow isolate reads the room before the opening's admissions...
  const counter = await t.kv.get<AdmissionCount>(keys.dropAdmissions(id));
  const stale = [];
  for await (const e of t.kv.list<TicketRecord>({ prefix: keys.dropTickets(id) })) stale.push(e);
  // ...another lets the first three in...
  t.clock.set(OPENS_AT);
  assert.equal((await poll(t, id, places[0])).status, 200);
  const inside = stale.filter((e) => e.value.admittedAt === null);
  const admittedNow: string[] = [];
  for await (const { value } of t.kv.list<TicketRecord>({ prefix: keys.dropTickets(id) })) {
    if (value.admittedAt !== null) admittedNow.push(value.ticket);
  }
  assert.equal(admittedNow.length, 3);
  // ...and the slow one's plan, three others from its stale read, must not add to them.
  const others = inside.filter((e) => !admittedNow.includes(e.value.ticket)).slice(0, 3);
  assert.deepEqual(await admit(t.kv, id, counter, others, OPENS_AT), []);
  let admitted = 0;
  for await (const { value } of t.kv.list<TicketRecord>({ prefix: keys.dropTickets(id) })) {
    if (value.admittedAt !== null) admitted++;
  }
  assert.equal(admitted, 3);
});

Deno.test("a poll with 2,000 waiting is answered from the room's snapshot: no KV call, no write", async () => {
  const calls = { count: 0, writes: 0 };
  const memory = await Deno.openKv(":memory:");
  // Every call on the store is counted (atomic writes apart), so the poll's cost is measured.
  const counted = new Proxy(memory, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls.count++;
        if (name === "atomic" || name === "set" || name === "delete") calls.writes++;
        return value.apply(target, args);
      };
    },
  });
  await using t = await createTestApp({ kv: counted });
  try {
    const id = await scheduleTestDrop(t, { units: 10, perPersonLimit: 2 });
    t.clock.set(ROOM_OPENS);
    const place = await guestPlace(t, id);
    // 1,999 others, written as joins write them.
    for (let i = 0; i < 1999; i += 100) {
      const op = memory.atomic();
      for (let j = i; j < Math.min(i + 100, 1999); j++) {
        const ticket = `other-ticket-${String(j).padStart(8, "0")}`;
        op.set(
          keys.dropTicket(id, ticket),
          {
            ticket,
            dropId: id,
            holder: `cart:other-${j}`,
            network: `10.1.${j >> 8}.${j & 255}`,
            joinedAt: ROOM_OPENS + j,
            early: true,
            lottery: crypto.randomUUID(),
            admittedAt: null,
            units: 0,
          } satisfies TicketRecord,
        );
      }
      await op.commit();
    }
    t.clock.set(OPENS_AT + 5_000);
    const started = performance.now();
    const first = await poll(t, id, place);
    const refreshMs = performance.now() - started;
    assert.equal(first.status, 200, first.text);
    const before = { ...calls };
    const pollsStarted = performance.now();
    for (let i = 0; i < 200; i++) {
      const res = await poll(t, id, place);
      assert.equal(res.status, 200);
    }
    const perPollMs = (performance.now() - pollsStarted) / 200;
    assert.equal(calls.count - before.count, 0, "200 polls within the second: no KV call");
    assert.equal(calls.writes - before.writes, 0);
    console.log(
      `room of 2,000: a refresh (list and admit) ${refreshMs.toFixed(1)} ms, then a poll ${
        perPollMs.toFixed(2)
      } ms with no KV call`,
    );
  } finally {
    memory.close();
  }
});
