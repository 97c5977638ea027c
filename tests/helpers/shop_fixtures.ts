/**
 * Shop fixtures made through the real API (carts, hosted checkouts, demo payments), shared by the
 * API suites so each builds its orders the way a shopper would rather than writing the KV.
 */
import assert from "node:assert/strict";
import { PACKS } from "../../shared/catalog/packs.ts";
import type { TestApp } from "./test_app.ts";
import type { StockKey } from "../../shared/bom.ts";
import { keys } from "../../server/kv/keys.ts";
import type { StockRecord } from "../../server/stock/record.ts";

/** The pack `newPackCart` adds; tests that reason about its switches or stock use this one. */
export const STARTER = PACKS[0];

/**
 * A valid US shipping address. Some tests match these exact values (the street in the masked
 * order view, the city shown publicly), so changing one means checking those assertions too.
 */
export const US_ADDRESS = {
  street: "1 Main St",
  apartment: "2B",
  city: "Springfield",
  state: "IL",
  zipCode: "62701",
  country: "US",
};

/** A card the demo provider always accepts. */
const GOOD_CARD = "4242424242424242";

/** The demo payment form as a shopper fills it in (the bench's shoppers all send it). */
export const DEMO_PAY_BODY = {
  cardNumber: GOOD_CARD,
  email: "bench@example.com",
  name: "Bench Shopper",
  address: US_ADDRESS,
};

/** The buyer details of a demo payment; anything left out takes `paidOrder`'s default. */
export interface BuyerDetails {
  email?: string;
  name?: string;
  address?: Record<string, string>;
}

/** A new cart holding one Starter Pack; answers its id. `headers` can make it an account's cart. */
export async function newPackCart(
  t: TestApp,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await t.request(`/api/cart/add?itemId=${STARTER.id}`, { method: "POST", headers });
  assert.equal(res.status, 200, res.text);
  return res.json.id;
}

/** The demo session id in a hosted checkout's `url` ("/demo-checkout/{sessionId}"). */
export function sessionIdOf(url: string): string {
  return url.replace("/demo-checkout/", "");
}

/**
 * A started US hosted checkout (stock reserved, not yet paid) of `cartId`, or of a new Starter
 * Pack cart when none is given.
 */
export async function startHostedCheckout(
  t: TestApp,
  cartId?: string,
): Promise<{ orderNumber: string; sessionId: string }> {
  const id = cartId ?? await newPackCart(t);
  const res = await t.request(`/api/cart/${id}/checkout/us`, { method: "POST" });
  assert.equal(res.status, 200, res.text);
  return { orderNumber: res.json.orderNumber, sessionId: sessionIdOf(res.json.url) };
}

/**
 * Submits the demo checkout page's payment form. The response is returned unchecked because
 * declines and refusals are what some tests are about.
 */
export async function payDemo(t: TestApp, sessionId: string, body: Record<string, unknown>) {
  return await t.request(`/api/demo/checkout-sessions/${sessionId}/pay`, { method: "POST", body });
}

/**
 * A paid Starter Pack order with an email and a US address, so it has everything the admin and
 * the public order view show. Without `details` it is Ann's (no name) order to `US_ADDRESS`.
 */
export async function paidOrder(
  t: TestApp,
  details: BuyerDetails = {},
): Promise<{ orderNumber: string; sessionId: string }> {
  const { email = "ann@example.com", name, address = US_ADDRESS } = details;
  const checkout = await startHostedCheckout(t);
  const paid = await payDemo(t, checkout.sessionId, {
    cardNumber: GOOD_CARD,
    email,
    name,
    address,
  });
  assert.equal(paid.status, 200, paid.text);
  return checkout;
}

/** The three counts of a stock record (without its low-stock level and alert flag). */
export async function stockCounts(
  kv: Deno.Kv,
  key: StockKey,
): Promise<{ stock: number; reserved: number; used: number }> {
  const record = (await kv.get<StockRecord>(keys.stock(key))).value!;
  return { stock: record.stock, reserved: record.reserved, used: record.used };
}

/** The emails sent to shoppers (the owner's notes of orders and low stock left out). */
export function shopperMails(t: Pick<TestApp, "mailer" | "config">) {
  return t.mailer.sent.filter((e) => e.to !== t.config.shopEmail);
}
