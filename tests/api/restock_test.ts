/**
 * The owner's restock list (GET /api/admin/restock): what people wait for (confirmed
 * back-in-stock sign-ups, shoppers a sold-out drop left in its room), how short each switch,
 * component and product is, how long the free stock lasts at the month's sales, ranked; rows with
 * nothing to do left off. Sign-ups and sales are made through the shop's own API; drops are
 * written through their keys (the room's routes are another part's).
 */
import assert from "node:assert/strict";
import { adminCookie, createTestApp, setStock, type TestApp } from "../helpers/test_app.ts";
import { paidOrder, STARTER } from "../helpers/shop_fixtures.ts";
import { confirmAddress } from "../helpers/stock_alerts.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { switchKey } from "../../shared/bom.ts";
import type { RestockRow } from "../../shared/restock.ts";
import { keys } from "../../server/kv/keys.ts";
import type { DropRecord, TicketRecord } from "../../server/drops/record.ts";

const DAY = 86_400_000;
const [WANTED, SOLD_FAST, PLENTY] = STARTER.switchIds;
const DROPPED = PACKS[1];

async function restock(t: TestApp, cookie: string): Promise<RestockRow[]> {
  const res = await t.request("/api/admin/restock", { headers: { Cookie: cookie } });
  assert.equal(res.status, 200, res.text);
  return res.json.rows;
}

let clients = 20;

/** A guest signs `email` up for a switch, confirmed from the link when `confirm`. */
async function signUp(t: TestApp, email: string, switchId: number, confirm: boolean) {
  const res = await t.request("/api/stock-alerts", {
    method: "POST",
    body: { email, switchId },
    client: `127.0.2.${clients++}`,
  });
  assert.equal(res.status, 200, res.text);
  if (confirm) await confirmAddress(t, email);
}

/**
 * A drop of a pack as the room and the checkout leave it: `sold` of `units` sold, and `waiting`
 * places never let in beside `admitted` ones (written through the keys: the drop's routes are
 * the room's, not on this branch).
 */
async function pastDrop(
  t: TestApp,
  id: string,
  o: { units: number; sold: number; waiting: number; admitted: number; at: number; off?: true },
): Promise<void> {
  const drop: DropRecord = {
    id,
    target: { kind: "pack", id: DROPPED.id },
    name: DROPPED.title,
    productIds: [DROPPED.id, DROPPED.idWithKeycaps],
    units: o.units,
    opensAt: o.at,
    perPersonLimit: 2,
    holdMinutes: 10,
    signedInOnly: false,
    createdAt: o.at - DAY,
    cancelledAt: o.off ? o.at : null,
    soldOutAt: o.sold >= o.units ? o.at + 60_000 : null,
  };
  const op = t.kv.atomic().set(keys.drop(id), drop)
    .set(keys.dropLedger(id), { holding: 0, sold: o.sold });
  for (let i = 0; i < o.waiting + o.admitted; i++) {
    const ticket: TicketRecord = {
      ticket: `${id}-ticket-${i}-abcdef`,
      dropId: id,
      holder: `cart:${id}-${i}`,
      network: `10.0.0.${i}`,
      joinedAt: o.at - 1_000,
      early: true,
      lottery: String(i),
      admittedAt: i < o.admitted ? o.at : null,
      units: i < o.admitted ? 2 : 0,
    };
    op.set(keys.dropTicket(id, ticket.ticket), ticket);
  }
  assert.ok((await op.commit()).ok);
}

function row(rows: RestockRow[], kind: RestockRow["kind"], id: string | number) {
  return rows.find((r) => r.kind === kind && r.id === String(id));
}

Deno.test("restock list: confirmed sign-ups on an empty shelf rank first, unconfirmed ones count for nothing", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  await setStock(t, switchKey(WANTED), 0);
  await signUp(t, "ann@example.com", WANTED, true);
  await signUp(t, "bob@example.com", WANTED, true);
  await signUp(t, "eve@example.com", WANTED, false);

  const rows = await restock(t, cookie);
  const wanted = row(rows, "switch", WANTED)!;
  assert.deepEqual(
    [wanted.stock, wanted.peopleWaiting, wanted.unitsWanted, wanted.unitsShort, wanted.lowStockAt],
    [0, 2, 2, 2 + 10, 10],
    "two confirmed people, one unit each, plus the low-stock level of 10, nothing free",
  );
  assert.equal(wanted.daysOfRunway, null, "nothing sold yet");
  assert.deepEqual(rows[0], wanted, "the most units short comes first");
  assert.ok(rows.every((r, i) => i === 0 || rows[i - 1].score >= r.score), "ranked by score");
  assert.equal(
    row(rows, "switch", PLENTY),
    undefined,
    "plenty, nobody waiting, none sold: left off",
  );
});

Deno.test("restock list: days of runway from the last 30 days' sales, and a month's runway is listed", async () => {
  await using t = await createTestApp();
  // Sold 41 days ago: outside the 30 days, so it does not count.
  await paidOrder(t, { email: "old@example.com" });
  t.clock.advance(41 * DAY);
  for (const email of ["a@example.com", "b@example.com", "c@example.com"]) {
    await paidOrder(t, { email });
  }
  const cookie = await adminCookie(t);
  // Three sold this month: 3 free last 30 days (listed), 4 free last 40 days (left off).
  for (const [id, stock] of [[SOLD_FAST, 3], [PLENTY, 4]]) {
    const put = await t.request(`/api/admin/inventory/switches/${id}`, {
      method: "PUT",
      body: { stock, lowStockAt: 0 },
      headers: { Cookie: cookie },
    });
    assert.equal(put.status, 200, put.text);
  }
  const rows = await restock(t, cookie);
  const fast = row(rows, "switch", SOLD_FAST)!;
  assert.deepEqual(
    [fast.stock, fast.soldLast30Days, fast.daysOfRunway, fast.unitsShort, fast.peopleWaiting],
    [3, 3, 30, 0, 0],
  );
  assert.equal(row(rows, "switch", PLENTY), undefined, "40 days of runway, nothing short");
});

Deno.test("restock list: shoppers a sold-out drop left waiting count as the pack's demand, at the drop's limit each", async () => {
  await using t = await createTestApp();
  const cookie = await adminCookie(t);
  const now = t.clock.now();
  await pastDrop(t, "drop-sold-out", { units: 6, sold: 6, waiting: 5, admitted: 3, at: now - DAY });
  // Neither of these left unfilled demand: one still sells, one was called off, one is too old.
  await pastDrop(t, "drop-selling", { units: 6, sold: 2, waiting: 40, admitted: 1, at: now });
  await pastDrop(t, "drop-called-off", {
    units: 6,
    sold: 6,
    waiting: 40,
    admitted: 3,
    at: now - DAY,
    off: true,
  });
  await pastDrop(t, "drop-last-year", {
    units: 6,
    sold: 6,
    waiting: 40,
    admitted: 3,
    at: now - 300 * DAY,
  });
  // The pack's first switch is nearly gone: the pack can be made twice.
  await setStock(t, switchKey(DROPPED.switchIds[0]), 2);

  const rows = await restock(t, cookie);
  const pack = row(rows, "product", DROPPED.id)!;
  assert.ok(pack, "the dropped pack is on the list");
  assert.deepEqual(
    [pack.name, pack.peopleWaiting, pack.unitsWanted, pack.stock, pack.unitsShort],
    [DROPPED.title, 5, 10, 2, 8],
    "5 never let in, 2 each (the drop's limit), 2 packs can be made",
  );
  const first = row(rows, "switch", DROPPED.switchIds[0])!;
  assert.deepEqual(
    [first.peopleWaiting, first.unitsWanted, first.unitsShort],
    [5, 10, 10 + 10 - 2],
    "every switch of the pack is wanted by the same people",
  );
  assert.equal(row(rows, "product", DROPPED.idWithKeycaps), undefined);
  assert.ok(row(rows, "component", "SMALL_BOX")!.peopleWaiting >= 5, "each pack takes a box");
});

Deno.test("restock list: the owner's alone", async () => {
  await using t = await createTestApp();
  const res = await t.request("/api/admin/restock");
  assert.equal(res.status, 401);
  assert.equal(typeof res.json.error, "string");
});
