/**
 * Reading and writing a drop's counts for one write that holds, sells or gives back its units:
 * the drop, its ledger, the tickets and each person key, read together and written checked in the
 * caller's atomic write, so two checkouts never both take the last unit or both pass a person's
 * limit. Only the purchase's writes (checkout, release, payment, cancel) change these counts.
 */
import { keys } from "../kv/keys.ts";
import { getManyBatched } from "../kv/kv_util.ts";
import type { DropLedger, DropRecord, TicketRecord } from "./record.ts";
import type { DropCounts, DropHold } from "./purchase_rules.ts";

/** What a drop write read: the entries, and the counts as read. */
export interface DropRead {
  drop: Deno.KvEntryMaybe<DropRecord>;
  ledger: Deno.KvEntryMaybe<DropLedger>;
  tickets: Map<string, Deno.KvEntryMaybe<TicketRecord>>;
  persons: Map<string, Deno.KvEntryMaybe<number>>;
  counts: DropCounts;
}

/** The tickets and person keys one write needs of a drop. */
export interface DropWant {
  dropId: string;
  tickets: string[];
  persons: string[];
}

/** Adds a hold's (or a claim's) keys to the wants, by drop. */
export function want(
  wants: Map<string, DropWant>,
  dropId: string,
  ticket: string,
  persons: readonly string[],
): void {
  const found = wants.get(dropId) ?? { dropId, tickets: [], persons: [] };
  if (!found.tickets.includes(ticket)) found.tickets.push(ticket);
  for (const p of persons) if (!found.persons.includes(p)) found.persons.push(p);
  wants.set(dropId, found);
}

/** The wants of one hold. */
export function wantsOf(
  hold: Pick<DropHold, "dropId" | "ticket" | "persons">,
): Map<string, DropWant> {
  const wants = new Map<string, DropWant>();
  want(wants, hold.dropId, hold.ticket, hold.persons);
  return wants;
}

/** Reads every wanted drop's counts (one round trip per ten keys, all at once). */
export async function readDropCounts(
  kv: Deno.Kv,
  wants: ReadonlyMap<string, DropWant>,
): Promise<Map<string, DropRead>> {
  const reads = new Map<string, DropRead>();
  await Promise.all([...wants.values()].map(async (w) => {
    const entries = await getManyBatched<unknown>(kv, [
      keys.drop(w.dropId),
      keys.dropLedger(w.dropId),
      ...w.tickets.map((t) => keys.dropTicket(w.dropId, t)),
      ...w.persons.map((p) => keys.dropPerson(w.dropId, p)),
    ]);
    const ledger = entries[1] as Deno.KvEntryMaybe<DropLedger>;
    const tickets = new Map(
      w.tickets.map((t, i) => [t, entries[2 + i] as Deno.KvEntryMaybe<TicketRecord>]),
    );
    const persons = new Map(
      w.persons.map((p, i) => [p, entries[2 + w.tickets.length + i] as Deno.KvEntryMaybe<number>]),
    );
    reads.set(w.dropId, {
      drop: entries[0] as Deno.KvEntryMaybe<DropRecord>,
      ledger,
      tickets,
      persons,
      counts: {
        ledger: ledger.value ?? { holding: 0, sold: 0 },
        persons: new Map([...persons].map(([p, e]) => [p, e.value ?? 0])),
        tickets: new Map([...tickets].map(([t, e]) => [t, e.value?.units ?? 0])),
      },
    });
  }));
  return reads;
}

/** The claims of drop writes in a stock batch: each drop's ledger, tickets and person keys. */
export function dropClaims(wants: ReadonlyMap<string, DropWant>): string[] {
  return [...wants.values()].flatMap((w) => [
    `drop:${w.dropId}`,
    ...w.tickets.map((t) => `drop-ticket:${w.dropId}:${t}`),
    ...w.persons.map((p) => `drop-person:${w.dropId}:${p}`),
  ]);
}

/** Checks and mutations `writeDropCounts` adds at most (for the batch's limits). */
export function dropWriteSize(
  reads: ReadonlyMap<string, DropRead>,
): { checks: number; mutations: number } {
  let n = 0;
  for (const read of reads.values()) n += 2 + read.tickets.size + read.persons.size;
  return { checks: n, mutations: n };
}

/**
 * Writes the changed counts into `op`, each checked against its entry as read (the drop too: a
 * drop called off meanwhile makes the write read again); `soldOutAt` is set on the drop when its
 * last unit is sold.
 */
export function writeDropCounts(
  op: Deno.AtomicOperation,
  read: DropRead,
  counts: DropCounts,
  now: number,
): void {
  const drop = read.drop.value;
  if (!drop) return;
  op.check(read.drop);
  const ledger = read.ledger.value ?? { holding: 0, sold: 0 };
  if (ledger.holding !== counts.ledger.holding || ledger.sold !== counts.ledger.sold) {
    op.check(read.ledger).set(keys.dropLedger(drop.id), counts.ledger);
  }
  for (const [person, entry] of read.persons) {
    const units = counts.persons.get(person) ?? 0;
    if ((entry.value ?? 0) !== units) {
      op.check(entry).set(keys.dropPerson(drop.id, person), units);
    }
  }
  for (const [ticket, entry] of read.tickets) {
    const units = counts.tickets.get(ticket) ?? 0;
    if (entry.value && entry.value.units !== units) {
      op.check(entry).set(entry.key, { ...entry.value, units });
    }
  }
  if (drop.soldOutAt === null && counts.ledger.sold >= drop.units) {
    op.set(read.drop.key, { ...drop, soldOutAt: now });
  }
}
