/**
 * The waiting room's two shopper calls as workflows: taking a place (counted on the join limits
 * before anything is read, a guest's place bound to a live cart or a new empty one, a reload's
 * place given back its counts) and answering a place to its holder alone. The cart wing's reads
 * and the session are passed in: the cart sits above this wing.
 */
import type { JoinAnswer, TicketAnswer } from "../../shared/drops.ts";
import type { Clock } from "../clock.ts";
import { Forbidden, LimitReached, NotFound } from "../errors.ts";
import { type Hit, hitRateLimit, type RateLimit } from "../kv/rate_limit.ts";
import { allLanded } from "../kv/kv_util.ts";
import { enterRoom } from "./join.ts";
import { TRANSFERRED } from "./purchase_rules.ts";
import type { Rooms } from "./room_snapshot.ts";
import { countRefusal, getDrop } from "./store.ts";

/** The limits a join counts, each with what it counts (the client's network, its block). */
export interface JoinLimits {
  client: { limit: RateLimit; key: string };
  block: { limit: RateLimit; key: string };
  newCart: RateLimit;
}

/** What a join needs of the cart wing and the session. */
export interface JoinRequest {
  /** The drop's id, as sent (checked only after the limits have counted the join). */
  dropId: () => string;
  userId: string | null;
  /** The cart the request named (body or query), maybe gone. */
  cartId: string | null;
  network: string;
  limits: JoinLimits;
  carts: {
    isLive(cartId: string): Promise<boolean>;
    createEmpty(): Promise<string>;
    ofUser(userId: string): Promise<string | null>;
  };
}

/**
 * Takes (or finds again) the caller's place: counted per client and per block before anything is
 * read, so a script's burst costs it its places, not our reads; a place found again (a reload,
 * another tab) gives its counts back.
 */
export async function takePlace(
  deps: { kv: Deno.Kv; clock: Clock },
  rooms: Rooms,
  request: JoinRequest,
): Promise<JoinAnswer> {
  const { kv, clock } = deps;
  const { limits } = request;
  let counted: Hit[];
  try {
    // Both counts land before any answer: one refusing must not leave the other's write on its
    // way to the store after the request ended.
    counted = await allLanded([
      hitRateLimit(
        kv,
        clock,
        limits.client.limit,
        limits.client.key,
        "Too many places in line from your connection. Please wait a few minutes.",
      ),
      hitRateLimit(
        kv,
        clock,
        limits.block.limit,
        limits.block.key,
        "Too many places in line from your network. Please wait a few minutes.",
      ),
    ]);
  } catch (err) {
    if (err instanceof LimitReached) await countJoinRefusal(kv, request.dropId);
    throw err;
  }
  const dropId = request.dropId();
  const given = request.cartId;
  const cartId = given && await request.carts.isLive(given) ? given : null;
  const entered = await enterRoom(deps, rooms, {
    dropId,
    userId: request.userId,
    network: request.network,
    guestCart: async () => {
      if (cartId) return cartId;
      // A guest without a live cart gets an empty one, counted like an add's new cart.
      await hitRateLimit(
        kv,
        clock,
        limits.newCart,
        limits.client.key,
        "Too many new carts from your connection. Please wait a few minutes, or keep using your current cart.",
      );
      return await request.carts.createEmpty();
    },
  });
  if (!entered.created) await allLanded(counted.map((count) => count.giveBack()));
  const answerCart = entered.cartId ?? cartId ??
    (request.userId ? await request.carts.ofUser(request.userId) : null);
  return { ticket: entered.ticket.ticket, state: entered.state, cartId: answerCart };
}

/** Counts a join refused by the limit, in the drop's tally when the drop exists. */
async function countJoinRefusal(kv: Deno.Kv, dropId: () => string): Promise<void> {
  let id: string;
  try {
    id = dropId();
  } catch {
    return;
  }
  if (await getDrop(kv, id)) await countRefusal(kv, id, "join limit");
}

/**
 * Where a place stands, answered to its holder alone: a guest's place is matched by its cart
 * without reading anything, an account's by the session (read only for those). Anyone else is
 * refused 403, tallied a few times per place, not per poll: a refused poll must not cost a write.
 */
export async function answerPlace(
  kv: Deno.Kv,
  rooms: Rooms,
  request: {
    dropId: string;
    ticket: string;
    cartId: string | undefined;
    userId: () => Promise<string | null>;
  },
): Promise<TicketAnswer> {
  const { dropId, ticket } = request;
  const place = await rooms.place(dropId, ticket);
  if (!place.found) throw new NotFound("No such place in this drop's line");
  const holder = place.ticket.holder;
  const mine = holder === `cart:${request.cartId}` ||
    (holder.startsWith("user:") && holder === `user:${await request.userId()}`);
  if (!mine) {
    if (rooms.tallyTransfer(dropId, ticket)) await countRefusal(kv, dropId, "transferred ticket");
    throw new Forbidden(TRANSFERRED);
  }
  return place.answer;
}
