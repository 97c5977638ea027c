/**
 * Drops and places in line for the purchase's tests, written straight through `keys` as the
 * owner's scheduling and the waiting room would store them (those routes live in the room's own
 * code), so these tests start from an admitted, waiting or lapsed place at will.
 */
import assert from "node:assert/strict";
import { keys } from "../../server/kv/keys.ts";
import type { DropLedger, DropRecord, TicketRecord } from "../../server/drops/record.ts";
import type { DropTarget } from "../../shared/drops.ts";
import { randomId } from "../../server/crypto.ts";
import type { TestApp } from "./test_app.ts";
import { STARTER } from "./shop_fixtures.ts";

/** What a test drop may set; the rest has the defaults below. */
export interface DropSpec {
  target?: DropTarget;
  productIds?: number[];
  units?: number;
  perPersonLimit?: number;
  holdMinutes?: number;
  /** Milliseconds from the test clock's now; the drop has opened by default. */
  opensIn?: number;
}

/** A drop of the Starter Pack (both its products), 5 units, 2 per person, opened a minute ago. */
export async function scheduleDrop(t: TestApp, spec: DropSpec = {}): Promise<DropRecord> {
  const now = t.clock.now();
  const drop: DropRecord = {
    id: randomId(12),
    target: spec.target ?? { kind: "pack", id: STARTER.id },
    name: "Starter Pack",
    productIds: spec.productIds ?? [STARTER.id, STARTER.idWithKeycaps],
    units: spec.units ?? 5,
    opensAt: now + (spec.opensIn ?? -60_000),
    perPersonLimit: spec.perPersonLimit ?? 2,
    holdMinutes: spec.holdMinutes ?? 10,
    signedInOnly: false,
    createdAt: now - 3_600_000,
    cancelledAt: null,
    soldOutAt: null,
  };
  const target = `${drop.target.kind}:${drop.target.id}`;
  const ok = await t.kv.atomic().set(keys.drop(drop.id), drop)
    .set(keys.dropByTarget(target), drop.id).commit();
  assert.ok(ok.ok);
  return drop;
}

/** A place in `drop`'s line for `holder`, admitted `admittedAgo` ms ago (null: still waiting). */
export async function placeFor(
  t: TestApp,
  drop: DropRecord,
  holder: string,
  admittedAgo: number | null = 0,
  network = "192.0.2.200",
): Promise<string> {
  const now = t.clock.now();
  const ticket: TicketRecord = {
    ticket: randomId(16),
    dropId: drop.id,
    holder,
    network,
    joinedAt: drop.opensAt - 1000,
    early: true,
    lottery: randomId(8),
    admittedAt: admittedAgo === null ? null : now - admittedAgo,
    units: 0,
  };
  const ok = await t.kv.atomic().set(keys.dropTicket(drop.id, ticket.ticket), ticket)
    .set(keys.dropTicketOf(drop.id, holder), ticket.ticket).commit();
  assert.ok(ok.ok);
  return ticket.ticket;
}

/** The drop's ledger as stored (nothing held or sold before the first checkout). */
export async function ledgerOf(t: TestApp, drop: DropRecord): Promise<DropLedger> {
  return (await t.kv.get<DropLedger>(keys.dropLedger(drop.id))).value ?? { holding: 0, sold: 0 };
}

/** Units a person key holds or bought in `drop`. */
export async function personUnits(t: TestApp, drop: DropRecord, person: string): Promise<number> {
  return (await t.kv.get<number>(keys.dropPerson(drop.id, person))).value ?? 0;
}

/** The refusals of `drop` counted under `reason`. */
export async function refusals(t: TestApp, drop: DropRecord, reason: string): Promise<number> {
  const entry = await t.kv.get<Deno.KvU64>(keys.dropRefused(drop.id, reason));
  return entry.value ? Number(entry.value.value) : 0;
}

/** The drop record as stored now. */
export async function dropNow(t: TestApp, drop: DropRecord): Promise<DropRecord> {
  return (await t.kv.get<DropRecord>(keys.drop(drop.id))).value!;
}

/** A new shopper account; answers its bearer token and user id. */
export async function shopper(
  t: TestApp,
  email: string,
): Promise<{ token: string; userId: string; headers: Record<string, string> }> {
  const body = { email, password: "The-Right-Password-1" };
  const made = await t.request("/auth/register", { method: "POST", body, client: "192.0.2.9" });
  assert.equal(made.status, 201, made.text);
  const login = await t.request("/auth/login", { method: "POST", body, client: "192.0.2.9" });
  assert.equal(login.status, 200, login.text);
  const me = await t.request("/auth/me", {
    headers: { Authorization: `Bearer ${login.json.token}` },
  });
  assert.equal(me.status, 200, me.text);
  const userId = me.json.id ?? me.json.userId ?? me.json.user?.id;
  assert.ok(userId, me.text);
  return {
    token: login.json.token,
    userId,
    headers: { Authorization: `Bearer ${login.json.token}` },
  };
}
