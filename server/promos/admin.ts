/**
 * The owner's promo codes: list them with their uses, create and edit them. Every change is
 * recorded in the catalogue's history in the write that makes it, and an edit made on an older
 * copy than the stored one is refused rather than silently overwriting it.
 */
import type { z } from "zod";
import type { promoCreateSchema, promoUpdateSchema } from "../../shared/schemas.ts";
import type { AdminPromoView } from "../../shared/api_types.ts";
import { toDollars } from "../../shared/pricing.ts";
import type { Clock } from "../clock.ts";
import { Conflict, InvalidInput, NotFound } from "../errors.ts";
import { changesBetween, recordEditInto } from "../catalog/history.ts";
import type { Actor } from "../audit/actor.ts";
import {
  getPromoEntry,
  listPromoEntries,
  normalizePromoCode,
  type PromoRecord,
  promoRecord,
  usageCounts,
  writePromoInto,
} from "./store.ts";

/** A create body as its schema answers it (money in cents, times in ms). */
export type PromoCreate = z.output<typeof promoCreateSchema>;
/** An edit body as its schema answers it. */
export type PromoUpdate = z.output<typeof promoUpdateSchema>;

/** The fields the history compares, as the API shows them. */
const HISTORY_FIELDS = [
  "percentOff",
  "amountOff",
  "startsAt",
  "endsAt",
  "maxUses",
  "maxUsesPerEmail",
  "minSubtotal",
  "active",
] as const;

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** A code as the admin API shows it. */
export function promoView(
  entry: Deno.KvEntry<PromoRecord>,
  counts: { uses: number; held: number },
): AdminPromoView {
  const p = entry.value;
  return {
    code: p.code,
    ...historyView(p),
    uses: counts.uses,
    held: counts.held,
    createdAt: new Date(p.createdAt).toISOString(),
    updatedAt: new Date(p.updatedAt).toISOString(),
    version: entry.versionstamp,
  };
}

/** Every code with its paid uses and holding checkouts, by code. */
export async function listPromos(kv: Deno.Kv): Promise<AdminPromoView[]> {
  const entries = await listPromoEntries(kv);
  const counts = await usageCounts(kv, entries.map((e) => e.value.code));
  return entries.map((e, i) => promoView(e, counts[i]));
}

/** One code as the admin API shows it; NotFound names it. */
export async function getPromoView(kv: Deno.Kv, code: string): Promise<AdminPromoView> {
  const entry = await getPromoEntry(kv, normalizePromoCode(code));
  if (!entry.versionstamp) throw new NotFound(`There is no promo code ${code}`);
  const [counts] = await usageCounts(kv, [entry.value.code]);
  return promoView(entry, counts);
}

/** Creates a code; a code that exists already is a 409. */
export async function createPromo(
  kv: Deno.Kv,
  clock: Clock,
  body: PromoCreate,
  actor: Actor,
): Promise<AdminPromoView> {
  const now = clock.now();
  const record = promoRecord({
    code: body.code,
    percentOff: body.percentOff ?? null,
    amountOffCents: body.amountOff ?? null,
    startsAt: body.startsAt ?? null,
    endsAt: body.endsAt ?? null,
    maxUses: body.maxUses ?? null,
    maxUsesPerEmail: body.maxUsesPerEmail ?? null,
    minSubtotalCents: body.minSubtotal ?? null,
    active: body.active ?? true,
  }, now);
  const previous = await getPromoEntry(kv, record.code);
  if (previous.versionstamp) {
    throw new Conflict(`The promo code ${record.code} exists already; edit it instead`);
  }
  const op = kv.atomic();
  writePromoInto(op, previous, record);
  recordEditInto(op, actor, {
    at: now,
    kind: "promo",
    target: record.code,
    action: "created",
    changes: changesBetween(null, historyView(record), HISTORY_FIELDS),
  });
  if (!(await op.commit()).ok) {
    throw new Conflict(`The promo code ${record.code} was created meanwhile; edit it instead`);
  }
  return await getPromoView(kv, record.code);
}

/**
 * Edits a code: the fields sent replace the stored ones (null clears a limit; percentOff and
 * amountOff replace each other). With `version`, an edit of an older copy is a 409.
 */
export async function updatePromo(
  kv: Deno.Kv,
  clock: Clock,
  code: string,
  body: PromoUpdate,
  actor: Actor,
): Promise<AdminPromoView> {
  const entry = await getPromoEntry(kv, normalizePromoCode(code));
  if (!entry.versionstamp) throw new NotFound(`There is no promo code ${code}`);
  const before = entry.value;
  if (body.version !== undefined && body.version !== entry.versionstamp) throw stale(before.code);

  const next: PromoRecord = { ...before };
  if (body.percentOff != null) [next.percentOff, next.amountOffCents] = [body.percentOff, null];
  if (body.amountOff != null) [next.amountOffCents, next.percentOff] = [body.amountOff, null];
  if (body.percentOff === null && body.amountOff === undefined) next.percentOff = null;
  if (body.amountOff === null && body.percentOff === undefined) next.amountOffCents = null;
  if (body.startsAt !== undefined) next.startsAt = body.startsAt;
  if (body.endsAt !== undefined) next.endsAt = body.endsAt;
  if (body.maxUses !== undefined) next.maxUses = body.maxUses;
  if (body.maxUsesPerEmail !== undefined) next.maxUsesPerEmail = body.maxUsesPerEmail;
  if (body.minSubtotal !== undefined) next.minSubtotalCents = body.minSubtotal;
  if (body.active !== undefined) next.active = body.active;
  if (next.percentOff === null && next.amountOffCents === null) {
    const message = "A promo code needs percentOff (1 to 100) or amountOff (dollars)";
    throw new InvalidInput(message, { issues: [{ path: "percentOff", message }] });
  }
  if (next.startsAt !== null && next.endsAt !== null && next.endsAt <= next.startsAt) {
    throw new InvalidInput(
      `endsAt must be after startsAt (${new Date(next.startsAt).toISOString()})`,
      { issues: [{ path: "endsAt", message: "endsAt must be after startsAt" }] },
    );
  }

  const changes = changesBetween(historyView(before), historyView(next), HISTORY_FIELDS);
  if (changes.length === 0) return await getPromoView(kv, before.code);
  const now = clock.now();
  next.updatedAt = now;
  const op = kv.atomic();
  writePromoInto(op, entry, next);
  recordEditInto(op, actor, {
    at: now,
    kind: "promo",
    target: before.code,
    action: "updated",
    changes,
  });
  if (!(await op.commit()).ok) throw stale(before.code);
  return await getPromoView(kv, before.code);
}

function stale(code: string): Conflict {
  return new Conflict(
    `The promo code ${code} was changed by someone else since you loaded it. Reload it to see the change, then make yours again.`,
  );
}

/** The record as the history shows it: the API's units (dollars, ISO dates). */
function historyView(p: PromoRecord) {
  return {
    percentOff: p.percentOff,
    amountOff: p.amountOffCents === null ? null : toDollars(p.amountOffCents),
    startsAt: iso(p.startsAt),
    endsAt: iso(p.endsAt),
    maxUses: p.maxUses,
    maxUsesPerEmail: p.maxUsesPerEmail,
    minSubtotal: p.minSubtotalCents === null ? null : toDollars(p.minSubtotalCents),
    active: p.active,
  };
}
