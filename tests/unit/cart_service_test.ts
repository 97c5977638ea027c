/**
 * The cart service (client/app/cart/cart_service.ts) with a stubbed fetch, checked for what a
 * shopper would notice: the cart id is kept, the badge follows the server's cart, an expired cart
 * is replaced by a new one on the next add, and failures read as the spec's messages.
 */
import assert from "node:assert/strict";
import {
  addItemToCart,
  clearCart,
  loadCart,
  updateCartQuantity,
} from "../../client/app/cart/cart_service.ts";
import { ApiError } from "../../client/app/api.ts";
import { useStore } from "../../client/app/store/store.ts";
import { json, type SeenRequest, stubFetch, stubLocation } from "./client_stubs.ts";

function cart(id: string, itemCount: number) {
  return { id, items: [], subtotal: 0, subtotalCents: 0, itemCount, lineCount: 0 };
}

/** Runs `fn` with a page origin, the given fetch and a store holding `cartId`; undoes all. */
async function withShop(
  cartId: string | null,
  answer: (request: SeenRequest) => Response,
  fn: (requests: SeenRequest[]) => Promise<void>,
): Promise<void> {
  const restoreLocation = stubLocation();
  const { requests, restore } = stubFetch(answer);
  useStore.setState({ cartId, badgeCount: 0, token: null });
  try {
    await fn(requests);
  } finally {
    restore();
    restoreLocation();
    // Through the setter, so the stored id is removed too.
    useStore.getState().setCartId(null);
  }
}

Deno.test("the first add keeps the new cart's id and shows its count on the badge", async () => {
  await withShop(null, () => json({ ...cart("c-new", 2), message: "Added" }), async (requests) => {
    const answer = await addItemToCart(384, 2);
    assert.equal(answer.message, "Added");
    assert.equal(useStore.getState().cartId, "c-new");
    assert.equal(useStore.getState().badgeCount, 2);
    const url = new URL(requests[0].url);
    assert.equal(url.pathname, "/api/cart/add");
    assert.equal(url.searchParams.get("itemId"), "384");
    assert.equal(url.searchParams.get("cartId"), null, "no cart yet, so none is sent");
  });
});

Deno.test("a later add goes to the kept cart", async () => {
  await withShop("c-1", () => json({ ...cart("c-1", 3), message: "Added" }), async (requests) => {
    await addItemToCart(1);
    assert.equal(new URL(requests[0].url).searchParams.get("cartId"), "c-1");
    assert.equal(useStore.getState().cartId, "c-1");
    assert.equal(useStore.getState().badgeCount, 3);
  });
});

Deno.test("an add to an expired cart starts a new cart instead of failing", async () => {
  await withShop(
    "c-old",
    (r) =>
      new URL(r.url).searchParams.get("cartId") === "c-old"
        ? json({ error: "Cart not found" }, 404)
        : json({ ...cart("c-fresh", 1), message: "Added" }),
    async (requests) => {
      const answer = await addItemToCart(384);
      assert.equal(answer.id, "c-fresh");
      assert.equal(requests.length, 2, "one retry without the expired id");
      assert.equal(new URL(requests[1].url).searchParams.get("cartId"), null);
      assert.equal(useStore.getState().cartId, "c-fresh");
      assert.equal(useStore.getState().badgeCount, 1);
    },
  );
});

Deno.test("a refused add keeps the server's reason; an outage reads as the spec's message", async () => {
  await withShop("c-1", () => json({ error: "Only 2 left in stock" }, 409), async () => {
    const err = await addItemToCart(384).catch((e) => e);
    assert.ok(err instanceof ApiError);
    assert.equal(err.message, "Only 2 left in stock");
    assert.equal(useStore.getState().cartId, "c-1", "the cart is kept");
  });
  await withShop("c-1", () => json({ error: "boom" }, 500), async () => {
    const err = await addItemToCart(384).catch((e) => e);
    assert.ok(!(err instanceof ApiError));
    assert.equal(err.message, "Failed to add item to cart");
  });
});

Deno.test("loading an expired cart forgets its id and shows an empty badge", async () => {
  await withShop("c-gone", () => json({ error: "Cart not found" }, 404), async () => {
    useStore.setState({ badgeCount: 4 });
    const warn = console.warn;
    console.warn = () => {};
    try {
      assert.equal(await loadCart(), null);
    } finally {
      console.warn = warn;
    }
    assert.equal(useStore.getState().cartId, null);
    assert.equal(useStore.getState().badgeCount, 0);
  });
});

Deno.test("loads at the same time share one request; no id means an empty cart", async () => {
  await withShop("c-1", () => json(cart("c-1", 5)), async (requests) => {
    const [a, b] = await Promise.all([loadCart(), loadCart()]);
    assert.equal(a?.id, "c-1");
    assert.equal(b, a);
    assert.equal(requests.length, 1);
    assert.equal(useStore.getState().badgeCount, 5);
  });
  await withShop(null, () => json(cart("x", 1)), async (requests) => {
    assert.equal(await loadCart(), null);
    assert.equal(requests.length, 0, "nothing to ask without a cart id");
  });
});

Deno.test("changing a quantity updates the badge; clearing the cart forgets it", async () => {
  await withShop("c-1", () => json(cart("c-1", 7)), async (requests) => {
    await updateCartQuantity("line-1", 7);
    const url = new URL(requests[0].url);
    assert.equal(requests[0].method, "PUT");
    assert.equal(url.pathname, "/api/cart/c-1/items/line-1");
    assert.equal(url.searchParams.get("quantity"), "7");
    assert.equal(useStore.getState().badgeCount, 7);
    clearCart();
    assert.equal(useStore.getState().cartId, null);
    assert.equal(useStore.getState().badgeCount, 0);
  });
});
