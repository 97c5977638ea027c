import assert from "node:assert/strict";

/**
 * POSTs to the shop's API, as a test sets up what the page then shows; anything but 200 fails the
 * test with the answer's text.
 */
// deno-lint-ignore no-explicit-any
export async function postOk(base: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return await res.json();
}

/** An owner's call with the admin password as a bearer token, as scripts make them. */
export async function ownerPost(
  shop: { url: string; adminPassword: string },
  path: string,
  body: unknown,
) {
  const res = await fetch(`${shop.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${shop.adminPassword}` },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, await res.text());
}

/** GETs from the shop's API; anything but 200 fails the test with the answer's text. */
export async function getOk<T>(base: string, path: string): Promise<T> {
  const res = await fetch(`${base}${path}`);
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return await res.json() as T;
}

/** Who pays in `paidOrder`, as the demo checkout page's form sends it. */
export interface Buyer {
  email: string;
  name: string;
  address: {
    street: string;
    apartment: string;
    city: string;
    state: string;
    zipCode: string;
    country: string;
  };
}

/** A buyer in Austin, Texas, at `street`. */
export function austinBuyer(email: string, name: string, street: string): Buyer {
  return {
    email,
    name,
    address: {
      street,
      apartment: "",
      city: "Austin",
      state: "TX",
      zipCode: "73301",
      country: "US",
    },
  };
}

/**
 * Buys one of `itemId` over HTTP as a shopper would: a new cart, a US hosted checkout, and the
 * demo provider's payment with the test card and `buyer`'s details. Answers the order's number.
 */
export async function paidOrder(base: string, buyer: Buyer, itemId: number): Promise<string> {
  const { id: cartId } = await postOk(base, `/api/cart/add?itemId=${itemId}&quantity=1`);
  const { url } = await postOk(base, `/api/cart/${cartId}/checkout/us`);
  const sessionId = String(url).slice(String(url).lastIndexOf("/") + 1);
  const paid = await postOk(base, `/api/demo/checkout-sessions/${sessionId}/pay`, {
    cardNumber: "4242424242424242",
    ...buyer,
  });
  assert.equal(paid.status, "PAYMENT_RECEIVED");
  return paid.orderNumber as string;
}

/** Sets a shelf count through the admin inventory PUT, as the owner would. */
async function putShelf(
  shop: { url: string; adminPassword: string },
  what: string,
  stock: number,
): Promise<void> {
  const res = await fetch(`${shop.url}/api/admin/inventory/${what}`, {
    method: "PUT",
    headers: { Authorization: `Bearer ${shop.adminPassword}`, "Content-Type": "application/json" },
    body: JSON.stringify({ stock }),
  });
  assert.equal(res.status, 200, await res.text());
}

/** Sets a switch's shelf count. */
export async function setSwitchStock(
  shop: { url: string; adminPassword: string },
  switchId: number,
  stock: number,
): Promise<void> {
  await putShelf(shop, `switches/${switchId}`, stock);
}

/** Sets a component's shelf count (boxes, keycaps, cube bodies). */
export async function setComponentStock(
  shop: { url: string; adminPassword: string },
  name: string,
  stock: number,
): Promise<void> {
  await putShelf(shop, `components/${name}`, stock);
}
