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
export function isActiveAdmission(drop: DropRecord, ticket: TicketRecord, now: number): boolean {
  const until = admittedUntil(drop, ticket);
  return until !== null && now < until && ticket.units === 0;
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
): number {
  if (now < drop.opensAt || drop.cancelledAt !== null) return 0;
  const free = drop.units - ledger.sold - ledger.holding;
  if (free <= 0) return 0;
  return Math.max(0, Math.ceil(free / drop.perPersonLimit) - activeAdmitted);
}

/** The places still waiting, in the room's order (the first window's lottery, then arrival). */
export function waitingInOrder(tickets: Iterable<TicketRecord>): TicketRecord[] {
  return [...tickets].filter((t) => t.admittedAt === null).sort(compareTickets);
}

/** The tickets to let in now, in order. */
export function nextToAdmit(
  drop: DropRecord,
  ledger: DropLedger,
  tickets: readonly TicketRecord[],
  now: number,
): TicketRecord[] {
  const active = tickets.filter((t) => isActiveAdmission(drop, t, now)).length;
  const room = placesToAdmit(drop, ledger, active, now);
  return room === 0 ? [] : waitingInOrder(tickets).slice(0, room);
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
  const soldOut = ledger.sold >= drop.units;
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
    if (now >= until) return { ...base, state: "expired" };
    return admitted;
  }
  if (soldOut) return { ...base, state: "soldOut" };
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
