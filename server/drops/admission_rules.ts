/**
 * Who is let in next, and what a place in the waiting room is told: pure rules over a drop, its
 * ledger and its tickets as one snapshot read them.
 */
import type { TicketAnswer } from "../../shared/drops.ts";
import { compareTickets, type DropLedger, type DropRecord, type TicketRecord } from "./record.ts";
import { admittedUntil } from "./store.ts";

/**
 * Whether an admission still takes room: let in, not lapsed, and no checkout yet (once it holds
 * units the ledger counts them as holding).
 */
export function isActiveAdmission(
  drop: DropRecord,
  ticket: TicketRecord,
  now: number,
  spent: Spent = nothingSpent,
): boolean {
  const until = admittedUntil(drop, ticket);
  return until !== null && now < until && ticket.units === 0 && !spent(ticket);
}

/**
 * Whether a place's person has nothing left to buy: its network, or its account, already holds or
 * bought the per-person limit (through another place). Such a place is never let in, and an
 * admission of it takes no room: ten accounts behind one door would otherwise take ten turns, nine
 * of which can buy nothing, and hold up the shoppers behind them until each turn lapsed.
 */
export type Spent = (ticket: TicketRecord) => boolean;

function nothingSpent(): boolean {
  return false;
}

/**
 * The rule `Spent` for a drop, from the units each person key holds or bought (keys.dropPerson):
 * a place is spent when its network's or its account's units reach the limit.
 */
export function spentBy(drop: DropRecord, persons: ReadonlyMap<string, number>): Spent {
  return (ticket) => {
    const of = (key: string) => persons.get(key) ?? 0;
    if (of(`network:${ticket.network}`) >= drop.perPersonLimit) return true;
    const account = ticket.holder.startsWith("user:") ? ticket.holder.slice(5) : null;
    return account !== null && of(`account:${account}`) >= drop.perPersonLimit;
  };
}

/**
 * How many more places to let in now: while the places let in and not yet checked out, each
 * taking at most the per-person limit, do not cover the units nobody holds or bought. None
 * before the opening or once the drop is over.
 */
export function placesToAdmit(
  drop: DropRecord,
  ledger: DropLedger,
  activeAdmitted: number,
  now: number,
  canMake = Infinity,
): number {
  if (now < drop.opensAt || drop.cancelledAt !== null) return 0;
  // The stock may make fewer than the drop has left: a pack's or an item's parts are shared with
  // other products, which can use them while the drop runs (switch drops gate every line).
  const free = Math.min(drop.units - ledger.sold - ledger.holding, canMake);
  if (free <= 0) return 0;
  return Math.max(0, Math.ceil(free / drop.perPersonLimit) - activeAdmitted);
}

/**
 * The places still waiting, in the room's order (the first window's lottery, then arrival);
 * places whose person has nothing left to buy are not in line. In the first window a client
 * network gets one draw: its first place (by arrival) is drawn with everyone's first places, and
 * its other places come after all of them. A network is one person to the limit, so ten carts
 * behind one connection can buy no more than one; ten draws would let them win the opening ten
 * times as often as a shopper who joined once.
 */
export function waitingInOrder(
  tickets: Iterable<TicketRecord>,
  spent: Spent = nothingSpent,
): TicketRecord[] {
  const all = [...tickets];
  const turn = drawTurns(all);
  return all.filter((t) => t.admittedAt === null && !spent(t)).sort((a, b) =>
    a.early && b.early && turn.get(a.ticket) !== turn.get(b.ticket)
      ? turn.get(a.ticket)! - turn.get(b.ticket)!
      : compareTickets(a, b)
  );
}

/**
 * Each first-window place's turn within its network: 0 for the network's first arrival (ties by
 * ticket, which nobody chooses), 1 for its second, and so on. Counted over every place, let in or
 * not, so a network's later places never move up into the first draw.
 */
export function drawTurns(tickets: readonly TicketRecord[]): Map<string, number> {
  const byNetwork = new Map<string, TicketRecord[]>();
  for (const t of tickets) {
    if (!t.early) continue;
    const group = byNetwork.get(t.network) ?? [];
    group.push(t);
    byNetwork.set(t.network, group);
  }
  const turns = new Map<string, number>();
  for (const group of byNetwork.values()) {
    group.sort((a, b) =>
      a.joinedAt - b.joinedAt || (a.ticket < b.ticket ? -1 : a.ticket > b.ticket ? 1 : 0)
    );
    group.forEach((t, i) => turns.set(t.ticket, i));
  }
  return turns;
}

/** The tickets to let in now, in order. */
export function nextToAdmit(
  drop: DropRecord,
  ledger: DropLedger,
  tickets: readonly TicketRecord[],
  now: number,
  spent: Spent = nothingSpent,
  canMake = Infinity,
): TicketRecord[] {
  const active = tickets.filter((t) => isActiveAdmission(drop, t, now, spent)).length;
  const room = placesToAdmit(drop, ledger, active, now, canMake);
  return room === 0 ? [] : waitingInOrder(tickets, spent).slice(0, room);
}

/** Minutes watched before the pace of admissions is trusted for an estimate. */
export const PACE_WATCHED_MS = 60_000;

/**
 * Minutes until a place `position` is let in, at the pace of admissions after the opening's first
 * batch (that batch is the units on hand, not a pace); undefined until a minute has been watched
 * and someone was let in after the first batch: no number is better than a made-up one.
 */
export function estimateMinutes(
  admittedTimes: readonly number[],
  now: number,
  position: number,
): number | undefined {
  if (admittedTimes.length === 0) return undefined;
  const first = Math.min(...admittedTimes);
  const watched = now - first;
  const later = admittedTimes.filter((at) => at > first).length;
  if (watched < PACE_WATCHED_MS || later === 0) return undefined;
  const perMinute = later / (watched / 60_000);
  return Math.max(1, Math.ceil(position / perMinute));
}

/** What the room knows when it answers a place. */
export interface RoomFacts {
  drop: DropRecord;
  ledger: DropLedger;
  /** The place's position among those waiting (1 next), when the snapshot holds it. */
  position: number | undefined;
  admittedTimes: readonly number[];
  /** The place's person already holds or bought the limit through another place. */
  spent?: boolean;
  /** Units of the target the free stock can make now (unknown: as many as the drop has). */
  canMake?: number;
}

/** Where a place stands, as its page is told. */
export function ticketAnswer(facts: RoomFacts, ticket: TicketRecord, now: number): TicketAnswer {
  const { drop, ledger } = facts;
  const base = {
    serverTime: new Date(now).toISOString(),
    opensAt: new Date(drop.opensAt).toISOString(),
    holdMinutes: drop.holdMinutes,
  };
  if (drop.cancelledAt !== null) return { ...base, state: "soldOut", cancelled: true };
  // Sold out: every unit sold, or, once open, none can be made any more and none is held (a hold
  // that lapses would give its units back; before the opening the owner may still restock).
  const soldOut = ledger.sold >= drop.units ||
    (now >= drop.opensAt && facts.canMake !== undefined && facts.canMake <= 0 &&
      ledger.holding === 0);
  const until = admittedUntil(drop, ticket);
  if (until !== null) {
    const admitted = {
      ...base,
      state: "admitted" as const,
      admittedAt: new Date(ticket.admittedAt!).toISOString(),
      admittedUntil: new Date(until).toISOString(),
    };
    // A place that checked out keeps its hold (or its purchase) whatever happens to the rest.
    if (ticket.units > 0) return admitted;
    if (soldOut) return { ...base, state: "soldOut" };
    if (facts.spent) return { ...base, state: "limitReached" };
    if (now >= until) return { ...base, state: "expired" };
    return admitted;
  }
  if (soldOut) return { ...base, state: "soldOut" };
  if (facts.spent) return { ...base, state: "limitReached" };
  if (now < drop.opensAt) return { ...base, state: "waiting", drawAtOpening: true };
  if (facts.position === undefined) return { ...base, state: "waiting" };
  const estimate = estimateMinutes(facts.admittedTimes, now, facts.position);
  return {
    ...base,
    state: "waiting",
    position: facts.position,
    ...(estimate === undefined ? {} : { estimateMinutes: estimate }),
  };
}
