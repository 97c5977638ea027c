/**
 * What a drop shows: the public view a product page reads (its countdown, its phase, what is
 * left) and the owner's live view and report (waiting, admitted, holding, sold, refused and why,
 * time to sell out, demand left unfilled). Read straight from KV: the owner's view is rare, and
 * a product page's read is one getMany through the target index plus the ledger.
 */
import type { DropAdminView, DropListRow, DropPublicView, DropTarget } from "../../shared/drops.ts";
import { SOLD_OUT_SHOWN_MS } from "../../shared/drop_shown.ts";
import type { Clock } from "../clock.ts";
import { NotFound } from "../errors.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched } from "../kv/kv_util.ts";
import { countStockAlerts } from "../stock/back_in_stock/store.ts";
import { isActiveAdmission } from "./admission_rules.ts";
import { countOpeningSignUps } from "./opening_mail.ts";
import {
  type DropLedger,
  type DropRecord,
  ROOM_OPENS_BEFORE_MS,
  type TicketRecord,
} from "./record.ts";
import { dropOfTarget, getDrop, ledgerOf, readLedger } from "./store.ts";
import { listDrops } from "./schedule.ts";

/** Where a drop stands at `now`. */
export function phaseOf(
  drop: DropRecord,
  ledger: DropLedger,
  now: number,
): DropPublicView["phase"] {
  if (drop.cancelledAt !== null) return "cancelled";
  if (ledger.sold >= drop.units) return "soldOut";
  if (now < drop.opensAt - ROOM_OPENS_BEFORE_MS) return "scheduled";
  return now < drop.opensAt ? "room" : "open";
}

/** The public view of a drop. */
export function publicViewOf(drop: DropRecord, ledger: DropLedger, now: number): DropPublicView {
  return {
    id: drop.id,
    target: drop.target,
    name: drop.name,
    units: drop.units,
    opensAt: new Date(drop.opensAt).toISOString(),
    serverTime: new Date(now).toISOString(),
    perPersonLimit: drop.perPersonLimit,
    holdMinutes: drop.holdMinutes,
    signedInOnly: drop.signedInOnly,
    phase: phaseOf(drop, ledger, now),
    unitsLeft: Math.max(0, drop.units - ledger.sold - ledger.holding),
  };
}

/**
 * The drop scheduled, running or sold out for a target, as a product page shows it; null when it
 * has none, the usual case, which every product page asks (a 404 would be logged by browsers as an
 * error on every page).
 */
export async function dropForTarget(
  kv: Deno.Kv,
  clock: Clock,
  target: DropTarget,
): Promise<DropPublicView | null> {
  const found = await dropOfTarget(kv, target);
  return found ? publicViewOf(found.drop, found.ledger, clock.now()) : null;
}

/** The most switch drops the configurators are told of (the owner runs a few at a time). */
export const SWITCH_DROPS_LISTED = 50;

/**
 * Whether a drop is shown where its target is sold: before and while it sells, and a sold-out one
 * for three days after its opening; never once called off.
 */
export function shownOnPages(view: DropPublicView, now: number): boolean {
  if (view.phase === "cancelled") return false;
  return view.phase !== "soldOut" || now - Date.parse(view.opensAt) < SOLD_OUT_SHOWN_MS;
}

/**
 * Every switch's drop the configurators show, soonest opening first: one range read of the target
 * index (its `switch:` keys: a scheduled, running or sold-out drop stays indexed until replaced,
 * a called-off one is removed), then the drops and their ledgers. An empty list, the usual case,
 * is the same answer every time, so a rendered configurator page stays cacheable.
 */
export async function switchDrops(kv: Deno.Kv, clock: Clock): Promise<DropPublicView[]> {
  const ids: string[] = [];
  // Target keys are "kind:id" strings: ";" follows ":", so this range is exactly the switches'.
  const index = kv.list<string>(
    { start: keys.dropByTarget("switch:"), end: keys.dropByTarget("switch;") },
    { limit: SWITCH_DROPS_LISTED },
  );
  for await (const entry of index) ids.push(entry.value);
  if (ids.length === 0) return [];
  const [drops, ledgers] = await Promise.all([
    getManyBatched<DropRecord>(kv, ids.map((id) => keys.drop(id))),
    getManyBatched<DropLedger>(kv, ids.map((id) => keys.dropLedger(id))),
  ]);
  const now = clock.now();
  const views: DropPublicView[] = [];
  drops.forEach((entry, i) => {
    if (!entry.value) return;
    const view = publicViewOf(entry.value, ledgerOf(ledgers[i]), now);
    if (shownOnPages(view, now)) views.push(view);
  });
  return views.sort((a, b) => Date.parse(a.opensAt) - Date.parse(b.opensAt));
}

/** The back-in-stock subjects that wait for a drop's target. */
function alertSubjects(drop: DropRecord): string[] {
  return drop.target.kind === "switch"
    ? [`switch:${drop.target.id}`]
    : drop.productIds.map((id) => `product:${id}`);
}

/** The owner's view of one drop, live while it runs and its report after. */
export async function adminView(kv: Deno.Kv, clock: Clock, id: string): Promise<DropAdminView> {
  const drop = await getDrop(kv, id);
  if (!drop) throw new NotFound("No such drop");
  const now = clock.now();
  const [ledgerEntry, alerts, openingMail] = await Promise.all([
    readLedger(kv, id),
    countStockAlerts(kv),
    countOpeningSignUps(kv, id),
  ]);
  const ledger = ledgerOf(ledgerEntry);
  let waiting = 0, admitted = 0, expired = 0;
  for await (const { value } of kv.list<TicketRecord>({ prefix: keys.dropTickets(id) })) {
    if (value.admittedAt === null) waiting++;
    else if (isActiveAdmission(drop, value, now)) admitted++;
    else if (value.units === 0) expired++;
  }
  const refused: Record<string, number> = {};
  for await (const entry of kv.list<Deno.KvU64>({ prefix: keys.dropRefusals(id) })) {
    refused[String(entry.key.at(-1))] = Number(entry.value.value);
  }
  const backInStock = alertSubjects(drop).reduce((n, s) => n + (alerts.get(s) ?? 0), 0);
  // Nobody waiting is unfilled demand only once nothing is left for them.
  const over = drop.cancelledAt !== null || ledger.sold >= drop.units;
  return {
    ...publicViewOf(drop, ledger, now),
    sold: ledger.sold,
    waiting,
    admitted,
    holding: ledger.holding,
    refused,
    createdAt: new Date(drop.createdAt).toISOString(),
    soldOutAt: drop.soldOutAt === null ? null : new Date(drop.soldOutAt).toISOString(),
    secondsToSellOut: drop.soldOutAt === null
      ? null
      : Math.max(0, Math.round((drop.soldOutAt - drop.opensAt) / 1000)),
    unfilled: {
      waiting: over ? waiting : 0,
      signUps: backInStock + openingMail,
      backInStock,
      openingMail,
    },
    expired,
  };
}

/** Every drop with its ledger, newest first: the owner's list. */
export async function listDropRows(kv: Deno.Kv, clock: Clock): Promise<DropListRow[]> {
  const drops = await listDrops(kv);
  const ledgers = await getManyBatched<DropLedger>(kv, drops.map((d) => keys.dropLedger(d.id)));
  const now = clock.now();
  const iso = (at: number | null) => at === null ? null : new Date(at).toISOString();
  return drops.map((drop, i) => {
    const ledger = ledgerOf(ledgers[i]);
    return {
      ...publicViewOf(drop, ledger, now),
      sold: ledger.sold,
      holding: ledger.holding,
      createdAt: new Date(drop.createdAt).toISOString(),
      cancelledAt: iso(drop.cancelledAt),
      soldOutAt: iso(drop.soldOutAt),
    };
  });
}
