/**
 * What the drops left unfilled, for the owner's restock list: shoppers still waiting in a drop's
 * room when it sold out, who would have bought up to the drop's limit each.
 */
import { keys } from "../kv/keys.ts";
import { getManyBatched, LIST_BATCH, listValues } from "../kv/kv_util.ts";
import type { DropLedger, DropRecord, TicketRecord } from "./record.ts";

/** A sold-out drop and how many places in its room were never let in. */
export interface UnfilledDrop {
  drop: DropRecord;
  waiting: number;
}

/**
 * The drops that sold out (their ledger's sold reached their units) since `since` (when the last
 * unit sold, or the opening when that was not recorded), each with its places never admitted. A
 * drop called off is absent: its target went back on sale to everyone. Older drops are left out,
 * since the people who waited then have likely bought elsewhere or signed up for a restock.
 */
export async function unfilledDrops(kv: Deno.Kv, since: number): Promise<UnfilledDrop[]> {
  const recent = (await listValues<DropRecord>(kv, keys.drops()))
    .filter((d) => d.cancelledAt === null && (d.soldOutAt ?? d.opensAt) >= since);
  if (recent.length === 0) return [];
  const ledgers = await getManyBatched<DropLedger>(kv, recent.map((d) => keys.dropLedger(d.id)));
  const found: UnfilledDrop[] = [];
  for (const [i, drop] of recent.entries()) {
    if ((ledgers[i].value?.sold ?? 0) < drop.units) continue;
    let waiting = 0;
    const tickets = kv.list<TicketRecord>(
      { prefix: keys.dropTickets(drop.id) },
      { batchSize: LIST_BATCH },
    );
    for await (const { value } of tickets) if (value.admittedAt === null) waiting++;
    found.push({ drop, waiting });
  }
  return found;
}
