/** Carts as stored: read (an expired cart is gone), written with checks, and linked to accounts. */
import { type StockKey } from "../../shared/bom.ts";
import { NotFound } from "../errors.ts";
import type { Clock } from "../clock.ts";
import { type ProductRecord, type SwitchRecord } from "../catalog/store.ts";
import { randomId } from "../crypto.ts";
import { keys } from "../kv/keys.ts";
import { CONFLICT, withRetries } from "../kv/kv_util.ts";

import { type CartLine, linesLeftAfter } from "./rules.ts";

/** Carts are kept this long after their last change. */
export const CART_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** A cart as stored. */
export interface CartRecord {
  id: string;
  lines: CartLine[];
  createdAt: number;
  /** The cart expires CART_TTL_MS after this (KV's expireIn is only the earliest deletion). */
  updatedAt: number;
  userId: string | null;
}

const CART_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** Catalogue records and free stock read while producing a cart object. */
export interface CartReads {
  products: Map<number, ProductRecord>;
  switches: Map<number, SwitchRecord>;
  /** Free units of the components the add checked (the new line's, not every line's). */
  free: Map<StockKey, number>;
}

// Keyed weakly by the returned object, so the reads live exactly as long as the request that
// holds that cart, and pricing it right after an add (the route's answer) reads nothing twice.
const readsByCart = new WeakMap<CartRecord, CartReads>();

/** What was read from KV while this cart object was produced (an add), if anything. */
export function readsFor(cart: CartRecord): CartReads | undefined {
  return readsByCart.get(cart);
}

/** Keeps what producing this cart object read, for `readsFor`. */
export function keepReads(cart: CartRecord, reads: CartReads): void {
  readsByCart.set(cart, reads);
}

/** The id of the cart a signed-in shopper last used, if any. */
export async function userCartId(kv: Deno.Kv, userId: string): Promise<string | null> {
  return (await kv.get<string>(keys.userCart(userId))).value;
}

/** The cart, or null when it does not exist or has expired. */
export async function findCart(
  kv: Deno.Kv,
  clock: Clock,
  cartId: string,
): Promise<Deno.KvEntryMaybe<CartRecord> | null> {
  if (!CART_ID.test(cartId)) return null;
  return liveCart(await kv.get<CartRecord>(keys.cart(cartId)), clock);
}

/** A cart entry read with other keys, or null when it does not exist or has expired. */
export function liveCart(
  entry: Deno.KvEntryMaybe<CartRecord>,
  clock: Clock,
): Deno.KvEntryMaybe<CartRecord> | null {
  if (!entry.value || entry.value.updatedAt + CART_TTL_MS <= clock.now()) return null;
  return entry;
}

/** The message of a cart that does not exist or has expired. */
export const CART_GONE = "Cart not found. It may have expired; add items to start a new one.";

/** The cart; throws NotFound when it does not exist or has expired. */
export async function getCart(kv: Deno.Kv, clock: Clock, cartId: string): Promise<CartRecord> {
  const entry = await findCart(kv, clock, cartId);
  if (!entry) {
    throw new NotFound(CART_GONE);
  }
  return entry.value!;
}

/** Adds taking a paid order's lines out of its cart to `op`, checked against the entry read. */
export function takeBoughtLinesInto(
  op: Deno.AtomicOperation,
  entry: Deno.KvEntryMaybe<CartRecord>,
  bought: readonly { lineId: string; quantity: number }[],
  now: number,
): void {
  if (!entry.value) return;
  const lines = linesLeftAfter(entry.value.lines, bought);
  op.check(entry).set(entry.key, { ...entry.value, lines, updatedAt: now }, {
    expireIn: CART_TTL_MS,
  });
}

/** Changes a cart's lines, read again and changed again when another writer got there first. */
export async function updateCart(
  kv: Deno.Kv,
  clock: Clock,
  cartId: string,
  change: (cart: CartRecord) => Promise<CartLine[]>,
): Promise<CartRecord> {
  return await withRetries(
    async () => {
      const entry = await findCart(kv, clock, cartId);
      if (!entry) {
        throw new NotFound(CART_GONE);
      }
      const now = clock.now();
      const next: CartRecord = {
        ...entry.value!,
        lines: await change(entry.value!),
        updatedAt: now,
      };
      const ok = await commitCart(kv, next, entry.versionstamp);
      return ok ? next : CONFLICT;
    },
    "update the cart",
    `cart:${cartId}`,
  );
}

/** Writes a cart, checked against the versionstamp it was read at (null: a new cart). */
export async function commitCart(
  kv: Deno.Kv,
  cart: CartRecord,
  versionstamp: string | null,
  /** A signed-in shopper's new cart is remembered for their other devices. */
  linkUser: string | null | false = false,
): Promise<boolean> {
  const op = kv.atomic()
    .check({ key: keys.cart(cart.id), versionstamp })
    .set(keys.cart(cart.id), cart, { expireIn: CART_TTL_MS });
  if (linkUser) op.set(keys.userCart(linkUser), cart.id);
  return (await op.commit()).ok;
}

/**
 * Makes a cart with no lines (a guest joining a drop's waiting room binds the place to it, then
 * adds to it once let in); it lives and expires like any cart. A signed-in shopper's new cart is
 * remembered for their other devices, as an add's new cart is. The caller counts it against the
 * client's new-cart limit first.
 */
export async function createEmptyCart(
  kv: Deno.Kv,
  clock: Clock,
  userId: string | null,
): Promise<CartRecord> {
  const now = clock.now();
  const cart: CartRecord = { id: randomId(16), lines: [], createdAt: now, updatedAt: now, userId };
  // A fresh random id: the check against an absent entry cannot fail but on a collision.
  if (!await commitCart(kv, cart, null, userId ?? false)) {
    throw new Error("A new cart's id was taken");
  }
  return cart;
}
