/**
 * Letting places in: the admitter writes `admittedAt` on the next tickets. Each write checks and
 * bumps the drop's admissions entry, read before the tickets were listed, so of two isolates
 * admitting from one state only one succeeds and the other reads again: the room is never filled
 * twice.
 */
import { keys } from "../kv/keys.ts";
import type { TicketRecord } from "./record.ts";

/** The drop's admissions so far, as stored under keys.dropAdmissions. */
export interface AdmissionCount {
  admitted: number;
}

/** Tickets one write admits (each is checked: a write holds at most 100 checks). */
export const ADMIT_PER_WRITE = 50;

/**
 * Admits `picks` at `now`, in writes of ADMIT_PER_WRITE, each checked against the admissions
 * entry (and the tickets, which no one else changes while they wait). Answers the tickets
 * admitted; fewer than picked when another isolate admitted meanwhile.
 */
export async function admit(
  kv: Deno.Kv,
  dropId: string,
  counter: Deno.KvEntryMaybe<AdmissionCount>,
  picks: readonly Deno.KvEntry<TicketRecord>[],
  now: number,
): Promise<TicketRecord[]> {
  const admitted: TicketRecord[] = [];
  let versionstamp = counter.versionstamp;
  let count = counter.value?.admitted ?? 0;
  for (let i = 0; i < picks.length; i += ADMIT_PER_WRITE) {
    const batch = picks.slice(i, i + ADMIT_PER_WRITE);
    const op = kv.atomic().check({ key: keys.dropAdmissions(dropId), versionstamp });
    const next = batch.map((e) => ({ ...e.value, admittedAt: now }));
    for (const [j, entry] of batch.entries()) op.check(entry).set(entry.key, next[j]);
    count += batch.length;
    op.set(keys.dropAdmissions(dropId), { admitted: count } satisfies AdmissionCount);
    const result = await op.commit();
    if (!result.ok) break;
    versionstamp = result.versionstamp;
    admitted.push(...next);
  }
  return admitted;
}
