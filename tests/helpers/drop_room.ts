/**
 * Drops in tests: scheduling one as the owner, and standing in for the purchase's writes (a
 * checkout holding units, a payment selling them, a hold lapsing) where a test of the room needs
 * the ledger to move.
 */
import assert from "node:assert/strict";
import { switchKey } from "../../shared/bom.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";
import type { DropLedger, DropRecord, TicketRecord } from "../../server/drops/record.ts";
import { keys } from "../../server/kv/keys.ts";
import { adminCookie, setStock, TEST_EPOCH, type TestApp } from "./test_app.ts";
import type { LoopbackAnswer, LoopbackRequest } from "./loopback.ts";

/** The switch the tests drop. */
export const DROP_SWITCH = SWITCHES[0];

/** When the tests' drops open: ten minutes after the test clock starts. */
export const OPENS_AT = TEST_EPOCH + 10 * 60_000;

/** Schedules a drop of DROP_SWITCH (or `fields`' target) as the owner; answers its id. */
export async function scheduleTestDrop(
  t: TestApp,
  fields: Record<string, unknown> = {},
): Promise<string> {
  await setStock(t, switchKey(DROP_SWITCH.id), 500);
  const res = await t.request("/api/admin/drops", {
    method: "POST",
    headers: { Cookie: await adminCookie(t) },
    body: {
      target: { kind: "switch", id: DROP_SWITCH.id },
      units: 10,
      opensAt: new Date(OPENS_AT).toISOString(),
      perPersonLimit: 2,
      ...fields,
    },
  });
  assert.equal(res.status, 201, res.text);
  return res.json.id;
}

/** Sets a drop's ledger as the purchase's writes would have left it. */
export async function setLedger(t: TestApp, dropId: string, ledger: DropLedger): Promise<void> {
  await t.kv.set(keys.dropLedger(dropId), ledger);
}

/** A ticket as stored. */
export async function storedTicket(t: TestApp, dropId: string, ticket: string) {
  return (await t.kv.get<TicketRecord>(keys.dropTicket(dropId, ticket))).value!;
}

/** Stands in for a drop checkout: the place holds `units` (its ticket and the ledger). */
export async function holdFor(t: TestApp, dropId: string, ticket: string, units: number) {
  const record = await storedTicket(t, dropId, ticket);
  const ledger = (await t.kv.get<DropLedger>(keys.dropLedger(dropId))).value ??
    { holding: 0, sold: 0 };
  await t.kv.atomic()
    .set(keys.dropTicket(dropId, ticket), { ...record, units: record.units + units })
    .set(keys.dropLedger(dropId), { ...ledger, holding: ledger.holding + units })
    .commit();
}

/** The drop as stored. */
export async function storedDrop(t: TestApp, dropId: string): Promise<DropRecord> {
  return (await t.kv.get<DropRecord>(keys.drop(dropId))).value!;
}

/** A place taken over a real socket: its ticket, its cart and the address it joined from. */
export interface SocketPlace {
  ticket: string;
  cartId: string;
  from: string;
}

/**
 * Each place's rank in the admission order as its holder polls it: 0 for a place let in, else its
 * position in line.
 */
export async function admissionRanks(
  server: { request(path: string, init: LoopbackRequest): Promise<LoopbackAnswer> },
  dropId: string,
  places: readonly SocketPlace[],
): Promise<number[]> {
  const rank: number[] = [];
  for (const place of places) {
    const res = await server.request(
      `/api/drops/${dropId}/tickets/${place.ticket}?cartId=${place.cartId}`,
      { from: place.from },
    );
    assert.equal(res.status, 200, res.text);
    rank.push(res.json.state === "admitted" ? 0 : res.json.position);
  }
  return rank;
}
