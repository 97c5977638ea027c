/**
 * A drop as a script writer plays it: one connection taking many places to win the draw more
 * often, one door spelled many ways to buy more than the limit.
 */
import assert from "node:assert/strict";
import { ROOM_OPENS_BEFORE_MS } from "../../server/drops/record.ts";
import { createTestApp } from "../helpers/test_app.ts";
import { loopback, serveOnLoopback } from "../helpers/loopback.ts";
import { OPENS_AT, scheduleTestDrop } from "../helpers/drop_room.ts";

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
  const rank: number[] = [];
  for (const place of places) {
    const res = await server.request(
      `/api/drops/${id}/tickets/${place.ticket}?cartId=${place.cartId}`,
      { from: place.from },
    );
    assert.equal(res.status, 200, res.text);
    rank.push(res.json.state === "admitted" ? 0 : res.json.position);
  }
  assert.deepEqual([...rank].sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i));
  // One of the script's places is drawn among the 41 connections; the other nine come after
  // every connection's first place, so the script wins the opening as often as anyone else.
  const scripts = rank.slice(0, 10).sort((a, b) => a - b);
  assert.deepEqual(scripts.slice(1), Array.from({ length: 9 }, (_, i) => 41 + i), `${scripts}`);
});
