/**
 * The owner schedules a drop and calls one off. A drop is written with its target's index entry,
 * its audit entry and the job that mails its opening in one atomic write, so a drop never exists
 * without any of them.
 */
import {
  DEFAULT_DROP_HOLD_MINUTES,
  type DropLedger,
  type DropRecord,
  isOver,
  targetKey,
} from "./record.ts";
import type { DropScheduleBody } from "../../shared/drops.ts";
import type { Actor } from "../audit/actor.ts";
import { auditEntry, auditInto } from "../audit/log.ts";
import type { Clock } from "../clock.ts";
import { randomId } from "../crypto.ts";
import { Conflict, InvalidInput, NotFound } from "../errors.ts";
import { keys } from "../kv/keys.ts";
import { ledgerOf, readLedger } from "./store.ts";
import { resolveTarget } from "./target.ts";
import { openingJob, openingJobTiming } from "./opening_mail.ts";
import { jobInto } from "../kv/jobs.ts";
import { getManyBatched } from "../kv/kv_util.ts";
import { listProducts } from "../catalog/store.ts";
import { sharedProduct } from "./overlap.ts";

/** The soonest a drop may open: shoppers need time to hear of it, the mail time to go out. */
export const MIN_LEAD_MS = 60_000;
/** The latest: a year ahead (a date further out is a typo, and the stock check means nothing). */
export const MAX_LEAD_MS = 365 * 24 * 60 * 60_000;

interface Deps {
  kv: Deno.Kv;
  clock: Clock;
}

/**
 * Schedules a drop: the target on sale, the opening at least a minute ahead, no other drop
 * scheduled or running for it nor for any product it would share (overlap.ts), and the free stock
 * covering the units now (409 naming how many it can make). Answers the new drop.
 */
export async function scheduleDrop(
  { kv, clock }: Deps,
  body: DropScheduleBody,
  actor: Actor,
): Promise<DropRecord> {
  const now = clock.now();
  const opensAt = Date.parse(body.opensAt);
  if (opensAt < now + MIN_LEAD_MS) {
    throw new InvalidInput("opensAt must be at least a minute from now");
  }
  if (opensAt > now + MAX_LEAD_MS) throw new InvalidInput("opensAt must be within a year");
  const target = await resolveTarget(kv, body.target);
  if (target.canMake < body.units) {
    throw new Conflict(
      `The stock can make only ${target.canMake} of ${target.name} now, fewer than ${body.units}`,
      { canMake: target.canMake },
    );
  }
  const drop: DropRecord = {
    id: randomId(12),
    target: { kind: body.target.kind, id: body.target.id },
    name: target.name,
    productIds: target.productIds,
    units: body.units,
    opensAt,
    perPersonLimit: body.perPersonLimit,
    holdMinutes: body.holdMinutes ?? DEFAULT_DROP_HOLD_MINUTES,
    signedInOnly: body.signedInOnly ?? false,
    createdAt: now,
    cancelledAt: null,
    soldOutAt: null,
  };
  // Another drop scheduled meanwhile (the marker moved) makes the write read everything again:
  // it may now clash, or not at all (an unrelated drop scheduled at the same moment).
  for (let attempt = 0; attempt < SCHEDULE_TRIES; attempt++) {
    if (await trySchedule(kv, clock, actor, drop)) return drop;
  }
  throw new Conflict("Other drops were being scheduled at the same moment; please try again");
}

/** How often scheduling reads again when other drops were scheduled meanwhile. */
const SCHEDULE_TRIES = 5;

/**
 * One try of scheduling `drop`: refused (Conflict) when its target or a product it would share
 * has a drop scheduled or running; false when another drop was scheduled meanwhile.
 */
async function trySchedule(
  kv: Deno.Kv,
  clock: Clock,
  actor: Actor,
  drop: DropRecord,
): Promise<boolean> {
  const indexKey = keys.dropByTarget(targetKey(drop.target));
  // The marker first: a drop scheduled after this read changes it, and this write then fails.
  const scheduled = await kv.get<number>(keys.dropScheduled());
  const indexed = await kv.get<string>(indexKey);
  if (indexed.value) {
    const other = await kv.get<DropRecord>(keys.drop(indexed.value));
    if (other.value && !isOver(other.value, ledgerOf(await readLedger(kv, other.value.id)))) {
      throw new Conflict(
        `${drop.name} already has a drop scheduled or running (opening ${
          new Date(other.value.opensAt).toISOString()
        }); call it off first`,
        { dropId: other.value.id },
      );
    }
  }
  const [products, live] = await Promise.all([listProducts(kv), liveDrops(kv)]);
  for (const other of live) {
    const shared = sharedProduct(drop, other, products);
    if (!shared) continue;
    throw new Conflict(
      `${shared.name} would be part of two drops, ${drop.name} and ${other.name} (opening ${
        new Date(other.opensAt).toISOString()
      }), and nobody could buy it while both last; call that drop off first, or schedule this one once it has ended`,
      { dropId: other.id },
    );
  }
  const op = kv.atomic()
    // The index and the marker as read: a drop scheduled meanwhile, for the target or any other,
    // makes this write fail, and the caller read again.
    .check(indexed, scheduled)
    .set(keys.dropScheduled(), clock.now())
    .set(keys.drop(drop.id), drop)
    .set(indexKey, drop.id);
  jobInto(op, openingJob(drop.id), openingJobTiming(drop));
  auditInto(
    op,
    auditEntry(clock, actor, {
      kind: "drops",
      action: "drop.scheduled",
      target: drop.id,
      label: drop.name,
      detail: `${drop.units} units of ${drop.name} opening ${
        new Date(drop.opensAt).toISOString()
      }, ${drop.perPersonLimit} per person, holds of ${drop.holdMinutes} minutes${
        drop.signedInOnly ? ", signed-in shoppers only" : ""
      }`,
    }),
  );
  return (await op.commit()).ok;
}

/** The drops scheduled or running: neither called off nor sold out. */
async function liveDrops(kv: Deno.Kv): Promise<DropRecord[]> {
  const open = (await listDrops(kv)).filter((d) => d.cancelledAt === null);
  const ledgers = await getManyBatched<DropLedger>(kv, open.map((d) => keys.dropLedger(d.id)));
  return open.filter((d, i) => !isOver(d, ledgerOf(ledgers[i])));
}

/** Every drop, newest first (by when it was scheduled). */
export async function listDrops(kv: Deno.Kv): Promise<DropRecord[]> {
  const found: DropRecord[] = [];
  for await (const entry of kv.list<DropRecord>({ prefix: keys.drops() })) found.push(entry.value);
  return found.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
}

/**
 * Calls a drop off, before or while it runs: shoppers waiting are told it ended, and the target
 * sells as usual again (its index entry goes). Holds already taken stay with their checkouts.
 */
export async function cancelDrop(
  { kv, clock }: Deps,
  id: string,
  actor: Actor,
): Promise<DropRecord> {
  const entry = await kv.get<DropRecord>(keys.drop(id));
  const drop = entry.value;
  if (!drop) throw new NotFound("No such drop");
  if (drop.cancelledAt !== null) throw new Conflict("This drop was already called off");
  const ledger = ledgerOf(await readLedger(kv, id));
  if (isOver(drop, ledger)) {
    throw new Conflict("This drop has sold out: there is nothing to call off");
  }
  const now = clock.now();
  const cancelled: DropRecord = { ...drop, cancelledAt: now };
  const indexKey = keys.dropByTarget(targetKey(drop.target));
  const indexed = await kv.get<string>(indexKey);
  const op = kv.atomic().check(entry, indexed).set(entry.key, cancelled);
  if (indexed.value === id) op.delete(indexKey);
  auditInto(
    op,
    auditEntry(clock, actor, {
      kind: "drops",
      action: "drop.cancelled",
      target: id,
      label: drop.name,
      changes: { cancelledAt: { from: null, to: new Date(now).toISOString() } },
    }),
  );
  if (!(await op.commit()).ok) {
    throw new Conflict("The drop changed while it was being called off; try again");
  }
  return cancelled;
}
