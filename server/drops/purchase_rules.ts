/**
 * The pure rules of buying from a drop: what a checkout holds of it, whether a place in line may
 * buy now, and how a hold moves the drop's counts (held, sold, given back). The writes that apply
 * them (the cart's gate, the reservation, the release, the paid write) only read and store.
 */
import { Conflict, Forbidden } from "../errors.ts";
import {
  type DropLedger,
  type DropRecord,
  isOver,
  type TicketRecord,
  unitsToward,
} from "./record.ts";
import type { Bom } from "../../shared/bom.ts";

/**
 * What an order holds of a drop. `state` says where its units are counted: "holding" in the
 * ledger's holding (unpaid), "sold" in its sold, "returned" in neither (given back), so the ledger
 * always equals the sum over orders.
 */
export interface DropHold {
  dropId: string;
  ticket: string;
  units: number;
  /** The person keys (personKeys) its units are counted under. */
  persons: string[];
  state: "holding" | "sold" | "returned";
}

/** A cart line's place in a drop: the ticket it was added with. */
export interface DropTicketRef {
  dropId: string;
  ticket: string;
}

/** Why a drop refuses, as counted for the owner's view (countRefusal). */
export type RefusalReason =
  | "no admitted ticket"
  | "admission lapsed"
  | "transferred ticket"
  | "per-person limit"
  | "sold out"
  | "fewer left than asked";

/** A refusal of a drop: the shopper's sentence, and the reason it is counted under. */
export class DropRefused extends Conflict {
  constructor(readonly dropId: string, readonly reason: RefusalReason, message: string) {
    super(message);
  }
}

/** The refusal of a place presented by someone other than its holder. */
export const TRANSFERRED = "This place in line belongs to another shopper";

/** A ticket shown by someone it does not belong to (403, counted as "transferred ticket"). */
export class TicketTransferred extends Forbidden {
  readonly reason = "transferred ticket" as const;
  constructor(readonly dropId: string) {
    super(TRANSFERRED);
  }
}

/** The units a drop has neither sold nor held for a checkout. */
export function unitsLeft(drop: DropRecord, ledger: DropLedger): number {
  return Math.max(0, drop.units - ledger.sold - ledger.holding);
}

/** Whether a drop still decides who may buy its target (scheduled or running, not over). */
export function gates(drop: DropRecord, ledger: DropLedger): boolean {
  return !isOver(drop, ledger);
}

/** The units lines take of a drop. */
export function dropUnitsOf(
  drop: Pick<DropRecord, "target" | "productIds">,
  lines: readonly { productId: number | null; bom: Bom; quantity: number }[],
): number {
  return lines.reduce((sum, line) => sum + unitsToward(drop, line), 0);
}

/**
 * The person keys a drop's order counts at most, in its payment's write: the network it checked
 * out from, the network its place joined from (claimOf), the account, the mailbox (given at the
 * checkout, or on a hosted page at payment), and two delivery addresses: the one given at the
 * checkout and another a payment page collected (paymentPersons keeps both).
 */
export const MOST_PERSON_KEYS = 6;

/**
 * Checks a drop adds at most to each write of its order: the drop, its ledger, the place and its
 * person keys. The checkout refuses an order whose payment's write would pass KV's limit with
 * them (checkPayableSize): counting fewer let a charge be taken that could never be recorded.
 */
export const DROP_WRITE_CHECKS = 3 + MOST_PERSON_KEYS;

/** The sentence of the per-person limit. */
export function limitSentence(limit: number, have: number): string {
  const left = Math.max(0, limit - have);
  return `The drop allows ${limit} per person; you have ${have} held or bought${
    left > 0 ? `, so you can add ${left} more` : ""
  }`;
}

/** The opening as messages say it (UTC, like the API's dates). */
export function openingText(at: number): string {
  const iso = new Date(at).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/**
 * Whether `ticket` may buy from `drop` now for a shopper who is any of `holders`
 * (`user:<id>`, `cart:<id>`): it must be theirs, admitted, and within its time to start a
 * checkout. Throws the refusal.
 */
export function checkAdmitted(
  drop: DropRecord,
  ticket: TicketRecord | null,
  /** Null for a ticket the cart's gate already matched to its holder (a line carrying it). */
  holders: readonly string[] | null,
  now: number,
): TicketRecord {
  if (!ticket || ticket.dropId !== drop.id) {
    throw new DropRefused(drop.id, "no admitted ticket", joinSentence(drop));
  }
  if (holders && !holders.includes(ticket.holder)) throw new TicketTransferred(drop.id);
  if (ticket.admittedAt === null || now < drop.opensAt) {
    throw new DropRefused(
      drop.id,
      "no admitted ticket",
      `It is not your turn to buy ${drop.name} yet; keep the waiting room open and it lets you in`,
    );
  }
  // Lapsed at `admittedUntil` itself, as the room counts it (isActiveAdmission): the room lets the
  // next place in at that moment, so this one buys nothing from then on.
  if (now >= ticket.admittedAt + drop.holdMinutes * 60_000) {
    throw new DropRefused(
      drop.id,
      "admission lapsed",
      `Your turn to buy ${drop.name} lapsed ${drop.holdMinutes} minutes after you were let in`,
    );
  }
  return ticket;
}

/** The sentence for a shopper without a place in line. */
export function joinSentence(drop: DropRecord): string {
  return `${drop.name} is part of a drop opening ${
    openingText(drop.opensAt)
  }; join the waiting room to buy it`;
}

/**
 * The counts a hold's write changes: the drop's ledger, each person key's units and the ticket's
 * units, by key. Read with their entries, changed by the rules below, written checked.
 */
export interface DropCounts {
  ledger: DropLedger;
  persons: Map<string, number>;
  /** Units each ticket read has held or bought. */
  tickets: Map<string, number>;
}

/**
 * Holds `units` for a checkout, or refuses: nothing left ("The drop has sold out"), more than the
 * units left (how many are),
 * or past the limit on any of the person keys (the sentence names how many they have).
 */
export function holdUnits(
  drop: DropRecord,
  counts: DropCounts,
  ticket: string,
  persons: readonly string[],
  units: number,
): void {
  const left = isOver(drop, counts.ledger) ? 0 : unitsLeft(drop, counts.ledger);
  if (left <= 0) throw new DropRefused(drop.id, "sold out", "The drop has sold out");
  if (left < units) {
    // Not sold out: the shopper can still have what is left, and should hear so rather than
    // leave the last units unsold until their turn lapses.
    throw new DropRefused(
      drop.id,
      "fewer left than asked",
      `Only ${left} of the drop ${
        left === 1 ? "is" : "are"
      } left: change the quantity to ${left} to buy ${left === 1 ? "it" : "them"}`,
    );
  }
  const most = mostHeld(counts, ticket, persons);
  if (most + units > drop.perPersonLimit) {
    throw new DropRefused(drop.id, "per-person limit", limitSentence(drop.perPersonLimit, most));
  }
  counts.ledger = { ...counts.ledger, holding: counts.ledger.holding + units };
  addPersons(counts, ticket, persons, units);
}

/** The most units any of a shopper's keys (their place in line included) holds or bought. */
function mostHeld(counts: DropCounts, ticket: string, persons: readonly string[]): number {
  return Math.max(
    counts.tickets.get(ticket) ?? 0,
    ...persons.map((p) => counts.persons.get(p) ?? 0),
  );
}

/** A held checkout that ends unpaid (lapse, replacement, cancel): its units go back. */
export function giveBackHeld(counts: DropCounts, hold: DropHold): void {
  counts.ledger = { ...counts.ledger, holding: Math.max(0, counts.ledger.holding - hold.units) };
  addPersons(counts, hold.ticket, hold.persons, -hold.units);
}

/** A held checkout paid: its units move from holding to sold. */
export function sellHeld(counts: DropCounts, hold: DropHold): void {
  counts.ledger = {
    holding: Math.max(0, counts.ledger.holding - hold.units),
    sold: counts.ledger.sold + hold.units,
  };
}

/** A paid order cancelled while its drop still sells: its units go back to the drop. */
export function giveBackSold(counts: DropCounts, hold: DropHold): void {
  counts.ledger = { ...counts.ledger, sold: Math.max(0, counts.ledger.sold - hold.units) };
  addPersons(counts, hold.ticket, hold.persons, -hold.units);
}

/**
 * Sells `units` to a payment whose hold had lapsed (given back), when the drop still has them and
 * the person is within the limit; answers false otherwise (the payment is refunded).
 */
export function sellLate(
  drop: DropRecord,
  counts: DropCounts,
  hold: DropHold,
  persons: readonly string[],
): boolean {
  if (drop.cancelledAt !== null || unitsLeft(drop, counts.ledger) < hold.units) return false;
  if (mostHeld(counts, hold.ticket, persons) + hold.units > drop.perPersonLimit) return false;
  counts.ledger = { ...counts.ledger, sold: counts.ledger.sold + hold.units };
  addPersons(counts, hold.ticket, persons, hold.units);
  return true;
}

/**
 * Counts `units` more under person keys a hold did not know at its checkout (a hosted checkout's
 * email and address, collected by the provider's page); false when one would pass the limit.
 */
export function countMorePersons(
  drop: DropRecord,
  counts: DropCounts,
  persons: readonly string[],
  units: number,
): boolean {
  const most = Math.max(0, ...persons.map((p) => counts.persons.get(p) ?? 0));
  if (most + units > drop.perPersonLimit) return false;
  for (const p of persons) counts.persons.set(p, (counts.persons.get(p) ?? 0) + units);
  return true;
}

function addPersons(
  counts: DropCounts,
  ticket: string,
  persons: readonly string[],
  units: number,
): void {
  for (const p of persons) counts.persons.set(p, Math.max(0, (counts.persons.get(p) ?? 0) + units));
  counts.tickets.set(ticket, Math.max(0, (counts.tickets.get(ticket) ?? 0) + units));
}

/** A copy the rules may change while the original stays as read (a plan may run again). */
export function copyCounts(counts: DropCounts): DropCounts {
  return {
    ledger: { ...counts.ledger },
    persons: new Map(counts.persons),
    tickets: new Map(counts.tickets),
  };
}
