import type { CartAddResult, CartView } from "../../../shared/api_types.ts";
import type { TesterAddInput } from "../../../shared/schemas.ts";
import { api, ApiError, isRefusal } from "../api.ts";
import { useStore } from "../store/store.ts";

/**
 * The cart service (docs/product.md#cart-behaviour and #cart-messages): keeps the cart id in the
 * store (and localStorage), keeps the badge in step with the server's cart, and rethrows failures
 * with a readable message.
 */

function remember(cart: CartView): CartView {
  const state = useStore.getState();
  if (state.cartId !== cart.id) state.setCartId(cart.id);
  state.setBadgeCount(cart.itemCount);
  return cart;
}

/**
 * A refusal (4xx) is rethrown as it is, so callers can still tell it is the server's reason (the
 * cart page toasts only those); anything else becomes the spec's message.
 */
function failure(err: unknown, fallback: string): Error {
  return isRefusal(err) ? err : new Error(fallback);
}

/**
 * The load under way for each cart id. The layout (for the badge) and the cart and checkout
 * pages all load on mount, so a fresh page load would send the same GET twice; they share one.
 */
const pendingLoads = new Map<string, Promise<CartView | null>>();

/** Loads the cart; with no id it is empty, and a failed load is logged and empties the cart. */
export async function loadCart(): Promise<CartView | null> {
  const cartId = useStore.getState().cartId;
  if (!cartId) {
    useStore.getState().setBadgeCount(0);
    return null;
  }
  let load = pendingLoads.get(cartId);
  if (!load) {
    // Forgotten once settled: a later visit to the cart asks the server again for fresh lines.
    load = fetchCart(cartId).finally(() => pendingLoads.delete(cartId));
    pendingLoads.set(cartId, load);
  }
  return await load;
}

async function fetchCart(cartId: string): Promise<CartView | null> {
  try {
    const cart = await api<CartView>(`/api/cart/${encodeURIComponent(cartId)}`);
    // The cart may have been cleared or replaced (an order was paid) while this load ran.
    if (useStore.getState().cartId !== cartId) return null;
    return remember(cart);
  } catch (err) {
    if (useStore.getState().cartId !== cartId) return null;
    console.warn("Cart could not be loaded; starting an empty one.", err);
    if (err instanceof ApiError && err.status === 404) useStore.getState().setCartId(null);
    else useStore.getState().setBadgeCount(0);
    return null;
  }
}

/** Adds a product by id (a pack or an item). */
export async function addItemToCart(itemId: number, quantity = 1): Promise<CartAddResult> {
  try {
    const cart = await api<CartAddResult>("/api/cart/add", {
      method: "POST",
      query: { itemId, quantity, cartId: useStore.getState().cartId },
    });
    remember(cart);
    return cart;
  } catch (err) {
    if (isMissingCart(err)) {
      useStore.getState().setCartId(null);
      return addItemToCart(itemId, quantity);
    }
    throw failure(err, "Failed to add item to cart");
  }
}

/**
 * Adds a custom tester or a fidget cube; `ticket` is an admitted place in the drop of one of its
 * switches.
 */
export async function addTesterToCart(
  payload: Omit<TesterAddInput, "cartId">,
): Promise<CartAddResult> {
  try {
    const cart = await api<CartAddResult>("/api/cart/add/tester", {
      method: "POST",
      body: { ...payload, cartId: useStore.getState().cartId },
    });
    remember(cart);
    return cart;
  } catch (err) {
    if (isMissingCart(err)) {
      useStore.getState().setCartId(null);
      return addTesterToCart(payload);
    }
    throw failure(err, "Failed to add to cart");
  }
}

/** Removes a line. */
export async function removeCartItem(lineId: string): Promise<CartView> {
  const cartId = useStore.getState().cartId;
  try {
    return remember(
      await api<CartView>(
        `/api/cart/${encodeURIComponent(cartId ?? "")}/items/${encodeURIComponent(lineId)}`,
        { method: "DELETE" },
      ),
    );
  } catch (err) {
    throw failure(err, "Failed to remove item from cart");
  }
}

/** Sets a line's quantity (0 or less removes it). */
export async function updateCartQuantity(lineId: string, quantity: number): Promise<CartView> {
  const cartId = useStore.getState().cartId;
  try {
    return remember(
      await api<CartView>(
        `/api/cart/${encodeURIComponent(cartId ?? "")}/items/${encodeURIComponent(lineId)}`,
        { method: "PUT", query: { quantity } },
      ),
    );
  } catch (err) {
    throw failure(err, "Failed to update item quantity");
  }
}

/** Forgets the cart (after an order is paid). */
export function clearCart(): void {
  useStore.getState().setCartId(null);
}

/** A stored id whose cart expired: adding should start a new cart instead of failing. */
function isMissingCart(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404 && /^Cart not found/.test(err.message);
}
