/**
 * Promo codes in KV: the owner's records, and their uses. A use is counted (a Deno.KvU64 summed)
 * in the write that pays an order; a code with a limit also keeps the unpaid checkouts holding
 * one of its uses, so a checkout that took the last one keeps it until it is paid or released
 * (docs/decisions.md#promo-code-uses). The rules themselves are in server/promos/redeem.ts.
 */
import { setMissing } from "../kv/kv_util.ts";
import { keys } from "../kv/keys.ts";

/** A promo code as stored: money in cents, times in Unix ms, null for "no limit". */
export interface PromoRecord {
  code: string;
  /** Exactly one of the two is set. */
  percentOff: number | null;
  amountOffCents: number | null;
  startsAt: number | null;
  endsAt: number | null;
  maxUses: number | null;
  maxUsesPerEmail: number | null;
  minSubtotalCents: number | null;
  active: boolean;
  createdAt: number;
  updatedAt: number;
}

/** The code the first boot's banner announces, as the shop launched with it. */
export const SEEDED_PROMO = { code: "LATEDELIVERY", percentOff: 16 } as const;

/** A record with every limit off: the shape of a new code before the owner's fields. */
export function promoRecord(
  fields: Pick<PromoRecord, "code"> & Partial<PromoRecord>,
  now: number,
): PromoRecord {
  return {
    percentOff: null,
    amountOffCents: null,
    startsAt: null,
    endsAt: null,
    maxUses: null,
    maxUsesPerEmail: null,
    minSubtotalCents: null,
    active: true,
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}

/** Writes the banner's code where absent: after the first boot the owner's records stand. */
export async function seedPromoCodes(kv: Deno.Kv, now: number, newStore = false): Promise<number> {
  const code = promoRecord({ ...SEEDED_PROMO }, now);
  return await setMissing(kv, [[keys.promo(code.code), code]], { storeWasEmpty: newStore });
}

/** Normalises what a shopper typed: codes are case-insensitive and ignore spaces. */
export function normalizePromoCode(input: string): string {
  return input.replace(/\s+/g, "").toUpperCase();
}

/** An email compared as the shopper typed it: one address whatever its case. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** One code's record as stored (a miss for input that cannot be a code). */
export async function getPromoEntry(
  kv: Deno.Kv,
  code: string,
): Promise<Deno.KvEntryMaybe<PromoRecord>> {
  const key = keys.promo(code);
  return code && code.length <= 40
    ? await kv.get<PromoRecord>(key)
    : { key, value: null, versionstamp: null };
}

/** Every code, by code. */
export async function listPromoEntries(kv: Deno.Kv): Promise<Deno.KvEntry<PromoRecord>[]> {
  const entries: Deno.KvEntry<PromoRecord>[] = [];
  for await (const e of kv.list<PromoRecord>({ prefix: keys.promos() })) entries.push(e);
  return entries;
}

/** Paid uses and holding checkouts of each code, in the order given. */
export async function usageCounts(
  kv: Deno.Kv,
  codes: readonly string[],
): Promise<{ uses: number; held: number }[]> {
  const counts: { uses: number; held: number }[] = [];
  // getMany reads at most 10 keys: two per code.
  for (let i = 0; i < codes.length; i += 5) {
    const batch = codes.slice(i, i + 5);
    const entries = await kv.getMany(
      batch.flatMap((code) => [keys.promoUses(code), keys.promoHolds(code)]),
    );
    for (let j = 0; j < batch.length; j++) {
      counts.push({
        uses: usesOf(entries[2 * j] as Deno.KvEntryMaybe<Deno.KvU64>),
        held: (entries[2 * j + 1].value as string[] | null)?.length ?? 0,
      });
    }
  }
  return counts;
}

/** Creates (`previous` null) or replaces a code, checked against the entry read. */
export function writePromoInto(
  op: Deno.AtomicOperation,
  previous: Deno.KvEntryMaybe<PromoRecord>,
  record: PromoRecord,
): void {
  op.check(previous).set(keys.promo(record.code), record);
}

/** A code's counts as one write read them: its record, paid uses and holding checkouts. */
export interface CodeUsage {
  code: string;
  promo: Deno.KvEntryMaybe<PromoRecord>;
  uses: Deno.KvEntryMaybe<Deno.KvU64>;
  holds: Deno.KvEntryMaybe<string[]>;
}

/** One email's paid uses and holding checkouts of a code. */
export interface EmailUsage {
  code: string;
  email: string;
  uses: Deno.KvEntryMaybe<Deno.KvU64>;
  holds: Deno.KvEntryMaybe<string[]>;
}

/** Everything a write read about the codes it may hold, give back or count. */
export interface UsageRead {
  codes: CodeUsage[];
  emails: EmailUsage[];
}

/** A code (and the email it is used with, when known) whose usage a write needs. */
export interface UsageWant {
  code: string;
  email: string | null;
}

/** Reads the usage of each wanted code and email, in one getMany. */
export async function readUsage(kv: Deno.Kv, wants: readonly UsageWant[]): Promise<UsageRead> {
  const codes = [...new Set(wants.map((w) => w.code))];
  const emails = [
    ...new Map(
      wants.filter((w) => w.email).map((w) => [`${w.code} ${w.email}`, w as Required<UsageWant>]),
    ).values(),
  ];
  const wanted: Deno.KvKey[] = [
    ...codes.flatMap((c) => [keys.promo(c), keys.promoUses(c), keys.promoHolds(c)]),
    ...emails.flatMap((w) => [
      keys.promoEmailUses(w.code, w.email!),
      keys.promoEmailHolds(w.code, w.email!),
    ]),
  ];
  if (wanted.length === 0) return { codes: [], emails: [] };
  // Two codes with two emails are the most any write reads: 10 keys, one getMany's limit.
  const entries = wanted.length <= 10
    ? await kv.getMany(wanted)
    : (await Promise.all([kv.getMany(wanted.slice(0, 10)), kv.getMany(wanted.slice(10))])).flat();
  const at = (i: number) => entries[i] as Deno.KvEntryMaybe<never>;
  return {
    codes: codes.map((code, i) => ({
      code,
      promo: at(3 * i),
      uses: at(3 * i + 1),
      holds: at(3 * i + 2),
    })),
    emails: emails.map((w, i) => ({
      code: w.code,
      email: w.email!,
      uses: at(3 * codes.length + 2 * i),
      holds: at(3 * codes.length + 2 * i + 1),
    })),
  };
}

/** Merges reads made apart (the first of two reads of one key wins: commits check it). */
export function mergeUsage(...reads: (UsageRead | null)[]): UsageRead {
  const codes = new Map<string, CodeUsage>();
  const emails = new Map<string, EmailUsage>();
  for (const read of reads) {
    for (const c of read?.codes ?? []) if (!codes.has(c.code)) codes.set(c.code, c);
    for (const e of read?.emails ?? []) {
      const k = `${e.code} ${e.email}`;
      if (!emails.has(k)) emails.set(k, e);
    }
  }
  return { codes: [...codes.values()], emails: [...emails.values()] };
}

/** The count of a uses entry. */
export function usesOf(entry: Deno.KvEntryMaybe<Deno.KvU64>): number {
  return Number(entry.value?.value ?? 0n);
}

/** What one write changes in a code's or an email's usage. */
export interface UsageWrite {
  /** The entries read: their versionstamps are checked when the decision depended on them. */
  uses: Deno.KvEntryMaybe<Deno.KvU64>;
  holds: Deno.KvEntryMaybe<string[]>;
  /** The new holding checkouts, or null to leave them as they are. */
  nextHolds: string[] | null;
  /** Counts one paid use. */
  count: boolean;
  /** The counts decided a limit: no other write may have changed them meanwhile. */
  limited: boolean;
}

/** Checks and mutations one UsageWrite may add. */
export const USAGE_WRITE_CHECKS = 2;
export const USAGE_WRITE_MUTATIONS = 2;

/** Adds one usage change to `op`. */
export function writeUsageInto(op: Deno.AtomicOperation, change: UsageWrite): void {
  if (change.limited || change.nextHolds) op.check(change.uses, change.holds);
  if (change.nextHolds) {
    if (change.nextHolds.length > 0) op.set(change.holds.key, change.nextHolds);
    else op.delete(change.holds.key);
  }
  // A sum needs no check: counts from writes decided apart add up (an unlimited code's
  // checkouts never wait for one another).
  if (change.count) op.sum(change.uses.key, 1n);
}
