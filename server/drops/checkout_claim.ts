/**
 * What a checkout claims of a drop, found before its write: the running drop its lines take units
 * of, the place in line its cart's lines carry, and the person keys its units count under. The
 * reservation then checks and holds them in its own atomic write (purchase_rules.ts).
 */
import { Conflict } from "../errors.ts";
import { mailboxOf } from "../email/mailbox.ts";
import { keys } from "../kv/keys.ts";
import { getManyBatched } from "../kv/kv_util.ts";
import { type Person, personKeys, type TicketRecord } from "./record.ts";
import { type DropIndex, type DropLine, runningDropsOf } from "./line_drops.ts";
import { DropRefused, type DropTicketRef, joinSentence } from "./purchase_rules.ts";

/** A checkout's claim on a drop. */
export interface DropClaim {
  dropId: string;
  ticket: string;
  units: number;
  persons: string[];
}

/**
 * The claim of a checkout of `lines` (null when no running drop takes their units), or the
 * refusal: lines of two drops, or a drop's target without a place in line (added before the drop
 * began).
 */
export async function claimOf(
  kv: Deno.Kv,
  lines: readonly DropLine[],
  places: readonly (DropTicketRef | undefined)[],
  person: Person,
  /** The drop index read ahead with the cart (line_drops.ts). */
  ahead?: Promise<DropIndex>,
): Promise<DropClaim | null> {
  // The places the lines carry, read alongside the drops (no round trip of their own).
  const placed = places.filter((p): p is DropTicketRef => !!p);
  const placeReads = placed.length === 0
    ? Promise.resolve([])
    : getManyBatched<TicketRecord>(kv, placed.map((p) => keys.dropTicket(p.dropId, p.ticket)));
  placeReads.catch(() => {});
  const drops = await runningDropsOf(kv, lines, ahead);
  if (drops.length === 0) return null;
  if (drops.length > 1) {
    throw new Conflict(
      `Your cart holds items of two drops (${
        drops.map((d) => d.drop.name).join(" and ")
      }); check out one drop at a time`,
    );
  }
  const { drop, units } = drops[0];
  const place = places.find((p) => p?.dropId === drop.id);
  if (!place) throw new DropRefused(drop.id, "no admitted ticket", joinSentence(drop));
  const joinedFrom = (await placeReads)[placed.indexOf(place)]?.value?.network;
  return {
    dropId: drop.id,
    ticket: place.ticket,
    units,
    persons: claimPersons(person, joinedFrom),
  };
}

/**
 * The person keys a checkout counts: the shopper's, and the network its place joined from, which
 * is the same person wherever it checks out from (else a second place taken at one door buys
 * again through a proxy).
 */
export function claimPersons(person: Person, joinedFrom: string | null | undefined): string[] {
  const persons = personKeys(person, mailboxOf);
  const network = joinedFrom ? `network:${joinedFrom}` : null;
  if (network && !persons.includes(network)) persons.push(network);
  return persons;
}

/**
 * The person keys of a payment: those its checkout counted, and the email and delivery address
 * a provider's page collected since (a hosted checkout knows neither when it starts).
 */
export function paymentPersons(counted: readonly string[], person: Person): string[] {
  return [...new Set([...counted, ...personKeys(person, mailboxOf)])];
}
