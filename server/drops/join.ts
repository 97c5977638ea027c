/**
 * Joining a drop's waiting room: one place per holder (a signed-in shopper's account, else a
 * guest's cart), taken in one checked write, so two racing joins of one shopper get one place and
 * joining again answers the same place: it belongs to the shopper, not the tab.
 */
import type { Clock } from "../clock.ts";
import { randomId } from "../crypto.ts";
import { Conflict, NotFound, Unauthorized } from "../errors.ts";
import { keys } from "../kv/keys.ts";
import {
  inFirstWindow,
  isOver,
  ROOM_OPENS_BEFORE_MS,
  roomIsOpen,
  type TicketRecord,
} from "./record.ts";
import { countRefusal, getDrop, ledgerOf, readLedger } from "./store.ts";
import type { Rooms } from "./room_snapshot.ts";
import type { TicketState } from "../../shared/drops.ts";

/** Who joins, and how a guest's place gets its cart. */
export interface JoinInput {
  dropId: string;
  /** The signed-in shopper, or null for a guest. */
  userId: string | null;
  /** The client network it joins from. */
  network: string;
  /**
   * The guest's cart to bind the place to: the one the request named when it lives, else a new
   * empty one (made only once the join is allowed). The cart wing's, passed in by the route.
   */
  guestCart: () => Promise<string>;
}

/** A place taken or found again, and where it stands. */
export interface Entered extends Joined {
  state: TicketState;
}

/**
 * Joins through this isolate's rooms: a new place is "waiting" (and its join keeps the room's
 * snapshot fresh, at most one read a second, so admissions never wait for a poll); a place found
 * again answers where it stands.
 */
export async function enterRoom(
  deps: { kv: Deno.Kv; clock: Clock },
  rooms: Rooms,
  input: JoinInput,
): Promise<Entered> {
  const joined = await joinDrop(deps, input);
  if (joined.created) {
    await rooms.snapshot(input.dropId);
    return { ...joined, state: "waiting" };
  }
  const place = await rooms.place(input.dropId, joined.ticket.ticket);
  return { ...joined, state: place.found ? place.answer.state : "waiting" };
}

/** A place taken or found again. */
export interface Joined {
  ticket: TicketRecord;
  /** False when the holder already had this place. */
  created: boolean;
  /** The guest's cart the place is bound to (null for a signed-in shopper). */
  cartId: string | null;
}

/** The holder a signed-in shopper's or a guest cart's place is bound to. */
export function holderOf(userId: string | null, cartId: string | null): string | null {
  if (userId) return `user:${userId}`;
  return cartId ? `cart:${cartId}` : null;
}

/**
 * Takes a place in a drop's room, or finds the holder's place: refused (409) for a drop called
 * off or over, or before its room opens; a guest is refused (401) by a signed-in-only drop.
 */
export async function joinDrop(
  { kv, clock }: { kv: Deno.Kv; clock: Clock },
  input: JoinInput,
): Promise<Joined> {
  const drop = await getDrop(kv, input.dropId);
  if (!drop) throw new NotFound("No such drop");
  if (drop.cancelledAt !== null) throw new Conflict("This drop was called off");
  if (isOver(drop, ledgerOf(await readLedger(kv, drop.id)))) {
    throw new Conflict("This drop has sold out");
  }
  const now = clock.now();
  if (!roomIsOpen(drop, now)) {
    throw new Conflict(
      `The waiting room opens at ${
        new Date(drop.opensAt - ROOM_OPENS_BEFORE_MS).toISOString()
      }, two minutes before the drop`,
      { opensAt: new Date(drop.opensAt).toISOString() },
    );
  }
  if (drop.signedInOnly && !input.userId) {
    await countRefusal(kv, drop.id, "signed-in only");
    throw new Unauthorized("This drop is for signed-in shoppers only: sign in, then join");
  }
  const cartId = input.userId ? null : await input.guestCart();
  const holder = holderOf(input.userId, cartId)!;
  const ofKey = keys.dropTicketOf(drop.id, holder);
  for (;;) {
    const mine = await kv.get<string>(ofKey);
    if (mine.value) {
      const found = (await kv.get<TicketRecord>(keys.dropTicket(drop.id, mine.value))).value;
      if (found) return { ticket: found, created: false, cartId };
    }
    const ticket: TicketRecord = {
      ticket: randomId(16),
      dropId: drop.id,
      holder,
      network: input.network,
      joinedAt: now,
      early: inFirstWindow(drop, now),
      // Drawn from the system's random source, never from the time or the ticket: nobody can
      // choose or predict their place in the first window's order.
      lottery: randomId(16),
      admittedAt: null,
      units: 0,
    };
    const done = await kv.atomic()
      .check(mine)
      .set(ofKey, ticket.ticket)
      .set(keys.dropTicket(drop.id, ticket.ticket), ticket)
      .commit();
    if (done.ok) return { ticket, created: true, cartId };
  }
}
