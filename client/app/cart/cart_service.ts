import type { CartAddResult, CartView } from "../../../shared/api_types.ts";
import type { TesterAddInput } from "../../../shared/schemas.ts";
import { api, ApiError } from "../api.ts";
import { useStore } from "../store/store.ts";

/**
 * The cart service of SPEC.md sections 4 and 8: keeps the cart id in the store (and localStorage),
 * keeps the badge in step with the server's cart, and rethrows failures with a readable message.
 */

function remember(cart: CartView): CartView {
  const state = useStore.getState();
  if (state.cartId !== cart.id) state.setCartId(cart.id);
  state.setCounts(cart.itemCount, cart.lineCount);
  return cart;
}

/** A failure with the server's own words when it gave a reason, else the spec's message. */
function failure(err: unknown, fallback: string): Error {
  if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
    return new ApiError(err.status, err.message, err.body);
  }
  return new Error(fallback);
}

/** Loads the cart; with no id it is empty, and a failed load is logged and empties the cart. */
export async function loadCart(): Promise<CartView | null> {
  const cartId = useStore.getState().cartId;
  if (!cartId) {
    useStore.getState().setCounts(0, 0);
    return null;
  }
  try {
    const cart = await api<CartView>(`/api/cart/${encodeURIComponent(cartId)}`);
    // The cart may have been cleared or replaced (an order was paid) while this load ran.
    if (useStore.getState().cartId !== cartId) return null;
    return remember(cart);
  } catch (err) {
    if (useStore.getState().cartId !== cartId) return null;
    console.warn("Cart could not be loaded; starting an empty one.", err);
    if (err instanceof ApiError && err.status === 404) useStore.getState().setCartId(null);
    else useStore.getState().setCounts(0, 0);
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

/** Adds a custom tester or a fidget cube. */
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
