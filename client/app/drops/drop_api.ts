/**
 * The shopper's drop calls (the contract of shared/drops.ts): a target's drop, joining its
 * waiting room, the place's state and "Email me when it opens". Joining binds the place to the
 * shopper's cart; a guest with no cart is given one by the join, which becomes the cart here.
 */
import type { CartAddResult } from "../../../shared/api_types.ts";
import type {
  DropNotifyAnswer,
  DropPublicView,
  DropTarget,
  JoinAnswer,
  TicketAnswer,
} from "../../../shared/drops.ts";
import { api, ApiError } from "../api.ts";
import { useStore } from "../store/store.ts";
import { keepPlace, type KeptPlace } from "./drop_places.ts";

/**
 * A signed-in shopper's session on the drop calls: the place in line is the account's (joined and
 * asked for by it), and the opening mail for the account's own address needs no confirmation.
 * Sent here rather than listed among the API client's shopper paths, which every page loads.
 */
function session(): Record<string, string> {
  const token = useStore.getState().token;
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/** The API path of a target's drop (404 when it has none). */
export function dropForPath(target: DropTarget): string {
  return `/api/drops/for/${target.kind}/${target.id}`;
}

/** A target's drop, or null when it has none. */
export async function fetchDropFor(
  target: DropTarget,
  signal?: AbortSignal,
): Promise<DropPublicView | null> {
  try {
    return await api<DropPublicView>(dropForPath(target), { signal });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/**
 * Joins a drop's waiting room with this browser's cart (or none) and keeps the place. Joining
 * again answers the same place, so a second tab or a retry costs nothing.
 */
export async function joinDrop(dropId: string, target: DropTarget): Promise<KeptPlace> {
  const store = useStore.getState();
  let answer: JoinAnswer;
  try {
    answer = await api<JoinAnswer>(`/api/drops/${encodeURIComponent(dropId)}/join`, {
      method: "POST",
      body: store.cartId ? { cartId: store.cartId } : {},
      headers: session(),
    });
  } catch (err) {
    // A kept cart that lapsed: join as a shopper with no cart (the join makes one).
    if (
      store.cartId && err instanceof ApiError && err.status === 404 && /cart/i.test(err.message)
    ) {
      store.setCartId(null);
      return await joinDrop(dropId, target);
    }
    throw err;
  }
  const cartId = answer.cartId ?? useStore.getState().cartId;
  if (answer.cartId && useStore.getState().cartId !== answer.cartId) {
    useStore.getState().setCartId(answer.cartId);
  }
  const place = { ticket: answer.ticket, cartId, target };
  keepPlace(dropId, place);
  return place;
}

/** Where a place stands, asked as its holder (the cart it was bound to, and the session). */
export function fetchTicket(
  dropId: string,
  place: KeptPlace,
  signal?: AbortSignal,
): Promise<TicketAnswer> {
  return api<TicketAnswer>(
    `/api/drops/${encodeURIComponent(dropId)}/tickets/${encodeURIComponent(place.ticket)}`,
    { query: { cartId: place.cartId }, signal, headers: session() },
  );
}

/** Signs an address up for the drop's opening email. */
export function notifyDropOpening(dropId: string, email: string): Promise<DropNotifyAnswer> {
  return api<DropNotifyAnswer>(`/api/drops/${encodeURIComponent(dropId)}/notify`, {
    method: "POST",
    body: { email },
    headers: session(),
  });
}

/**
 * Adds a drop's pack or item with the shopper's admitted place, into the cart the place is bound
 * to (never a new one: the place belongs to that cart). Kept apart from the cart service's add,
 * which starts a new cart when the kept one lapsed, and out of the first page's code.
 */
export async function addWithPlace(
  itemId: number,
  quantity: number,
  place: KeptPlace,
): Promise<CartAddResult> {
  const store = useStore.getState();
  const cart = await api<CartAddResult>("/api/cart/add", {
    method: "POST",
    query: { itemId, quantity, cartId: place.cartId ?? store.cartId, ticket: place.ticket },
  });
  if (store.cartId !== cart.id) store.setCartId(cart.id);
  store.setBadgeCount(cart.itemCount);
  return cart;
}
