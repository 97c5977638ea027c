/**
 * The waiting room as this isolate sees it: one snapshot per drop (the drop, its ledger and every
 * ticket, read in one pass), refreshed at most once a second and only while someone polls or
 * joins, shared by every poll. Each refresh lets the next places in (./admission.ts), so
 * admissions follow the ledger within a second of a hold lapsing or a payment. A poll is answered
 * from the snapshot: thousands waiting cost one list a second, and no write.
 */
import type { TicketAnswer } from "../../shared/drops.ts";
import type { Clock } from "../clock.ts";
import { keys } from "../kv/keys.ts";
import { LIST_BATCH } from "../kv/kv_util.ts";
import { type AdmissionCount, admit } from "./admission.ts";
import {
  nextToAdmit,
  type Spent,
  spentBy,
  ticketAnswer,
  waitingInOrder,
} from "./admission_rules.ts";
import type { DropLedger, DropRecord, TicketRecord } from "./record.ts";
import { findTicket, ledgerOf } from "./store.ts";
import { makeableNow } from "./target.ts";

/** How old a snapshot may be before a poll or a join reads the room again. */
export const SNAPSHOT_MS = 1_000;
/**
 * A poll of a place joined after the snapshot reads the room again only when the snapshot is at
 * least this old, so a burst of new places costs a few lists, not one each.
 */
export const FRESH_PLACE_REFRESH_MS = 250;
/**
 * Times one isolate counts a place presented by someone else for the owner's tally: enough to show
 * the owner the place was handed on, while a script polling with made-up carts costs no write.
 */
export const TRANSFER_TALLIES_PER_PLACE = 3;
/** A room nobody asked about for this long is forgotten (a drop long over holds no memory). */
export const FORGET_ROOM_MS = 10 * 60_000;

/** One read of a drop's room. */
export interface RoomSnapshot {
  drop: DropRecord;
  ledger: DropLedger;
  tickets: Map<string, TicketRecord>;
  /** Each waiting place's position (1 next). */
  positions: Map<string, number>;
  /** When each admitted place was let in, for the estimate's pace. */
  admittedTimes: number[];
  /** Whether a place's person has nothing left to buy (admission_rules.ts `spentBy`). */
  spent: Spent;
  /** Units of the target the free stock could make when the room was read. */
  canMake: number;
  readAt: number;
}

/** A place's answer, or why there is none. */
export type PlaceLookup =
  | { found: true; ticket: TicketRecord; answer: TicketAnswer }
  | { found: false };

/** The rooms of this isolate (one per app), read and admitted through. */
export interface Rooms {
  /** The room of a drop, fresh within SNAPSHOT_MS (null: no such drop). */
  snapshot(dropId: string): Promise<RoomSnapshot | null>;
  /** A place and its answer: from the snapshot, or read on its own when it joined since. */
  place(dropId: string, ticket: string): Promise<PlaceLookup>;
  /**
   * Whether a refusal of a place presented by someone else should be counted (a KV write): the
   * first TRANSFER_TALLIES_PER_PLACE of each place in this isolate, none after.
   */
  tallyTransfer(dropId: string, ticket: string): boolean;
}

/** Reads a room, letting in whoever there is room for; answers what it saw after admitting. */
async function readRoom(kv: Deno.Kv, clock: Clock, dropId: string): Promise<RoomSnapshot | null> {
  for (let attempt = 0;; attempt++) {
    // The admissions entry first: an admission committed after this read changes it, so a write
    // planned from a list that missed that admission fails its check.
    const [dropEntry, ledgerEntry, counter] = await kv.getMany<
      [DropRecord, DropLedger, AdmissionCount]
    >([keys.drop(dropId), keys.dropLedger(dropId), keys.dropAdmissions(dropId)]);
    const drop = dropEntry.value;
    if (!drop) return null;
    const entries = new Map<string, Deno.KvEntry<TicketRecord>>();
    for await (
      const entry of kv.list<TicketRecord>({ prefix: keys.dropTickets(dropId) }, {
        batchSize: LIST_BATCH,
      })
    ) entries.set(entry.value.ticket, entry);
    const persons = new Map<string, number>();
    for await (
      const entry of kv.list<number>({ prefix: keys.dropPersons(dropId) }, {
        batchSize: LIST_BATCH,
      })
    ) persons.set(entry.key.at(-1) as string, entry.value);
    const spent = spentBy(drop, persons);
    const ledger = ledgerOf(ledgerEntry);
    const now = clock.now();
    const tickets = new Map([...entries].map(([id, e]) => [id, e.value]));
    const canMake = await makeableNow(kv, drop);
    const picks = nextToAdmit(drop, ledger, [...tickets.values()], now, spent, canMake);
    if (picks.length > 0) {
      const admitted = await admit(
        kv,
        dropId,
        counter,
        picks.map((t) => entries.get(t.ticket)!),
        now,
      );
      for (const t of admitted) tickets.set(t.ticket, t);
      // Another isolate let places in meanwhile: read what it did (a few tries; then answer
      // what was seen, and the next refresh admits).
      if (admitted.length < picks.length && attempt < 2) continue;
    }
    return snapshotOf(drop, ledger, tickets, now, spent, canMake);
  }
}

function snapshotOf(
  drop: DropRecord,
  ledger: DropLedger,
  tickets: Map<string, TicketRecord>,
  readAt: number,
  spent: Spent,
  canMake: number,
): RoomSnapshot {
  const positions = new Map(
    waitingInOrder(tickets.values(), spent).map((t, i) => [t.ticket, i + 1]),
  );
  const admittedTimes = [...tickets.values()].flatMap((t) =>
    t.admittedAt === null ? [] : [t.admittedAt]
  );
  return { drop, ledger, tickets, positions, admittedTimes, readAt, spent, canMake };
}

/** The rooms of one app: each drop's snapshot, one refresh at a time. */
export function createRooms(kv: Deno.Kv, clock: Clock): Rooms {
  const rooms = new Map<
    string,
    {
      latest: RoomSnapshot | null;
      reading: Promise<RoomSnapshot | null> | null;
      /** Refusals of places presented by others, counted so far by place (real places only). */
      transfers: Map<string, number>;
    }
  >();

  function refresh(dropId: string): Promise<RoomSnapshot | null> {
    let room = rooms.get(dropId);
    if (!room) {
      room = { latest: null, reading: null, transfers: new Map() };
      rooms.set(dropId, room);
    }
    if (room.reading) return room.reading;
    const slot = room;
    slot.reading = readRoom(kv, clock, dropId).then((snapshot) => {
      if (snapshot) slot.latest = snapshot;
      // A drop that does not exist is not kept: ids from the street must not fill memory.
      else rooms.delete(dropId);
      return snapshot;
    }).finally(() => {
      slot.reading = null;
    });
    return slot.reading;
  }

  function forgetIdle(now: number): void {
    for (const [id, room] of rooms) {
      if (!room.reading && room.latest && now - room.latest.readAt >= FORGET_ROOM_MS) {
        rooms.delete(id);
      }
    }
  }

  async function snapshot(dropId: string): Promise<RoomSnapshot | null> {
    const now = clock.now();
    forgetIdle(now);
    const latest = rooms.get(dropId)?.latest;
    // A room read before the opening is stale at the opening: the draw and the first admissions
    // happen on the first poll after it, not up to a second later.
    const opened = latest && latest.readAt < latest.drop.opensAt && now >= latest.drop.opensAt;
    if (latest && !opened && now - latest.readAt < SNAPSHOT_MS) return latest;
    return await refresh(dropId);
  }

  async function place(dropId: string, id: string): Promise<PlaceLookup> {
    let room = await snapshot(dropId);
    if (!room) return { found: false };
    let ticket = room.tickets.get(id);
    if (!ticket) {
      // Joined after this snapshot was read (or no such place): read it on its own.
      ticket = (await findTicket(kv, dropId, id)).value ?? undefined;
      if (!ticket) return { found: false };
      if (clock.now() - room.readAt >= FRESH_PLACE_REFRESH_MS) {
        room = (await refresh(dropId)) ?? room;
        ticket = room.tickets.get(id) ?? ticket;
      }
    }
    const answer = ticketAnswer(
      {
        drop: room.drop,
        ledger: room.ledger,
        position: room.positions.get(id),
        admittedTimes: room.admittedTimes,
        spent: room.spent(ticket),
        canMake: room.canMake,
      },
      ticket,
      clock.now(),
    );
    return { found: true, ticket, answer };
  }

  function tallyTransfer(dropId: string, ticket: string): boolean {
    const room = rooms.get(dropId);
    if (!room) return false;
    const counted = room.transfers.get(ticket) ?? 0;
    if (counted >= TRANSFER_TALLIES_PER_PLACE) return false;
    room.transfers.set(ticket, counted + 1);
    return true;
  }

  return { snapshot, place, tallyTransfer };
}
