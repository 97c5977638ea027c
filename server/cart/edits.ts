/**
 * What shoppers do to their carts: add a line (checked against the catalogue and the free stock),
 * change or remove one, and join a guest cart to their account's at sign-in.
 */
import {
  addBom,
  type Bom,
  type Component,
  shortages,
  type StockKey,
  switchKey,
} from "../../shared/bom.ts";
import { Conflict, InvalidInput, NotFound } from "../errors.ts";
import { cubeBodyProblem, testerProblem } from "../../shared/build_rules.ts";
import type { Clock } from "../clock.ts";
import {
  getProduct,
  getSwitches,
  type ProductRecord,
  type SwitchRecord,
} from "../catalog/store.ts";
import { randomId } from "../crypto.ts";
import { CONFLICT, withRetries } from "../kv/kv_util.ts";
import { freeUnits } from "../stock/store.ts";
import { readStockVersion } from "../kv/version.ts";
import { describeShortages } from "../stock/names.ts";
import { MAX_LINE_QUANTITY } from "../../shared/policy.ts";
import { gateLine } from "../drops/gate.ts";
import { guessTargets, readDropIndex } from "../drops/line_drops.ts";
import type { DropTicketRef } from "../drops/purchase_rules.ts";

import {
  type CartLine,
  lineBom,
  lineIdOf,
  type LineSpec,
  lineUnitCents,
  MAX_CART_LINES,
  shapeProblem,
  unsoldReason,
} from "./rules.ts";
import {
  CART_GONE,
  type CartRecord,
  commitCart,
  findCart,
  keepReads,
  updateCart,
  userCartId,
} from "./store.ts";

/**
 * Checks a line against the catalogue (the product, or every switch of a configuration exists,
 * in the right number, and all of it is still sold), giving the records it read.
 */
async function validateSpec(
  kv: Deno.Kv,
  spec: LineSpec,
): Promise<{ product: ProductRecord | null; switches: SwitchRecord[] }> {
  if (spec.kind === "product") {
    const product = await getProduct(kv, spec.productId);
    const unsold = unsoldReason(product, []);
    if (unsold) throw new Conflict(unsold);
    return { product, switches: [] };
  }
  const problem = shapeProblem(spec);
  if (problem) throw new InvalidInput(problem);
  const switches = await getSwitches(kv, spec.switchIds);
  const unsold = unsoldReason(null, switches);
  if (unsold) throw new Conflict(unsold);
  return { product: null, switches };
}

/**
 * Refuses a quantity that the current stock cannot cover, naming what is short; answers the free
 * units it read.
 */
async function ensureStock(
  kv: Deno.Kv,
  bom: Bom,
  quantity: number,
  spec?: LineSpec,
): Promise<Map<StockKey, number>> {
  const need = addBom(new Map(), bom, quantity);
  const free = await freeUnits(kv, [...need.keys()]);
  const short = shortages(need, (key) => free.get(key) ?? 0);
  if (short.size > 0) {
    // A configured build says what the configurator would have said (shared/build_rules.ts).
    const stock = {
      component: (name: Component) => free.get(name) ?? 0,
      switchUnits: (id: number) => free.get(switchKey(id)) ?? 0,
    };
    const problem = spec?.kind === "custom"
      ? testerProblem(spec, stock, quantity)
      : spec?.kind === "cube"
      ? cubeBodyProblem(stock, quantity)
      : null;
    if (problem) throw new Conflict(problem);
    throw new Conflict(`Out of stock: ${await describeShortages(kv, short)}`);
  }
  return free;
}

/** Input of an add. */
export interface AddInput {
  cartId: string | null | undefined;
  spec: LineSpec;
  quantity: number;
  userId?: string | null;
  /** The place in a drop's waiting room the shopper presents (the drop's target needs one). */
  ticket?: string | null;
  /** Settles once the add may be stored (a new cart's count against its limit); may reject. */
  admitted?: Promise<unknown>;
}

/**
 * Adds a line (or more of an equal line) to a cart, creating the cart when there is no usable id.
 * Validates the configuration and that stock covers the new quantity.
 */
export async function addToCart(kv: Deno.Kv, clock: Clock, input: AddInput): Promise<CartRecord> {
  try {
    return await addLine(kv, clock, input);
  } finally {
    // The add answers only once the write it started alongside is done: a refused add (a sold-out
    // item, a bad configuration) used to answer while its new cart's count was still on its way
    // to the store, a write landing after the request ended (the simulation's backup met one).
    await input.admitted?.catch(() => {});
  }
}

async function addLine(kv: Deno.Kv, clock: Clock, input: AddInput): Promise<CartRecord> {
  // The cart, the line's catalogue records and the stock version are read at once (one round trip
  // on a remote KV instead of three); the cart is read again only when the commit must retry.
  let firstRead: Promise<Deno.KvEntryMaybe<CartRecord> | null> | null = input.cartId
    ? findCart(kv, clock, input.cartId)
    : null;
  firstRead?.catch(() => {});
  // Whether a drop takes the line's units, asked alongside (no round trip of its own).
  const ahead = readDropIndex(
    kv,
    guessTargets([
      input.spec.kind === "product"
        ? { productId: input.spec.productId }
        : { productId: null, switchIds: input.spec.switchIds },
    ]),
  );
  ahead.catch(() => {});
  const [{ product, switches }] = await Promise.all([
    validateSpec(kv, input.spec),
    readStockVersion(kv),
  ]);
  const lineId = lineIdOf(input.spec);
  const bom = lineBom(input.spec, product);
  const addedPriceCents = lineUnitCents(input.spec, product, switches);
  return await withRetries(
    async () => {
      const entry = firstRead
        ? await firstRead
        : input.cartId
        ? await findCart(kv, clock, input.cartId)
        : null;
      firstRead = null;
      if (input.cartId && !entry) {
        throw new NotFound(CART_GONE);
      }
      const now = clock.now();
      const cart: CartRecord = entry?.value ?? {
        id: randomId(16),
        lines: [],
        createdAt: now,
        updatedAt: now,
        userId: input.userId ?? null,
      };
      const existing = cart.lines.find((l) => l.lineId === lineId);
      const quantity = (existing?.quantity ?? 0) + input.quantity;
      if (quantity > MAX_LINE_QUANTITY) {
        throw new InvalidInput(
          `You can have at most ${MAX_LINE_QUANTITY} of one item in the cart (it already has ${
            existing?.quantity ?? 0
          })`,
        );
      }
      if (!existing && cart.lines.length >= MAX_CART_LINES) {
        throw new InvalidInput(`A cart holds at most ${MAX_CART_LINES} different items`);
      }
      // A drop's target goes in only with the shopper's own admitted place (the line keeps it).
      const dropTicket = await gateLine(kv, clock, {
        line: { productId: product?.id ?? null, bom, quantity },
        added: input.quantity,
        ticket: input.ticket ?? existing?.dropTicket ?? null,
        holders: input.ticket || !existing?.dropTicket ? holdersOf(cart.id, input.userId) : null,
        ahead,
      });
      const free = await ensureStock(kv, bom, quantity, input.spec);
      const place = dropTicket ? { dropTicket } : {};
      // Adding more of a line is agreeing to today's price: the line is priced from now on.
      const lines = existing
        ? cart.lines.map((l) =>
          l.lineId === lineId ? { ...l, quantity, addedPriceCents, ...place } : l
        )
        : [
          ...cart.lines,
          { ...input.spec, lineId, quantity, addedPriceCents, ...place } as CartLine,
        ];
      const next = { ...cart, lines, updatedAt: now };
      await input.admitted;
      const ok = await commitCart(kv, next, entry?.versionstamp ?? null, !entry && next.userId);
      if (!ok) return CONFLICT;
      keepReads(next, {
        products: new Map(product ? [[product.id, product]] : []),
        switches: new Map(switches.map((s) => [s.id, s])),
        free,
      });
      return next;
    },
    "update the cart",
    input.cartId ? `cart:${input.cartId}` : undefined,
  );
}

/** Who a shopper is to a place in a drop's line: their cart, and their account when signed in. */
function holdersOf(cartId: string, userId: string | null | undefined): string[] {
  return userId ? [`cart:${cartId}`, `user:${userId}`] : [`cart:${cartId}`];
}

/** Whether a merged line keeps a place: the user's line's own, else the guest line's. */
function placeOf(kept: CartLine, joined: CartLine): { dropTicket?: DropTicketRef } {
  const dropTicket = kept.dropTicket ?? joined.dropTicket;
  return dropTicket ? { dropTicket } : {};
}

/** Sets a line's quantity; 0 or less removes it. */
export async function setLineQuantity(
  kv: Deno.Kv,
  clock: Clock,
  cartId: string,
  lineId: string,
  quantity: number,
): Promise<CartRecord> {
  if (quantity > MAX_LINE_QUANTITY) {
    throw new InvalidInput(`You can have at most ${MAX_LINE_QUANTITY} of one item in the cart`);
  }
  return await updateCart(kv, clock, cartId, async (cart) => {
    const line = cart.lines.find((l) => l.lineId === lineId);
    if (!line) throw new NotFound(`This cart has no item ${lineId}`);
    if (quantity <= 0) return cart.lines.filter((l) => l.lineId !== lineId);
    if (quantity > line.quantity) {
      // More of something no longer sold is refused like a new add; fewer is always fine.
      const { product } = await validateSpec(kv, line);
      const bom = lineBom(line, product);
      // More of a drop's target is bought with the line's own place, within its limit.
      await gateLine(kv, clock, {
        line: { productId: product?.id ?? null, bom, quantity },
        added: quantity - line.quantity,
        ticket: line.dropTicket ?? null,
        holders: null,
      });
      await ensureStock(kv, bom, quantity);
    }
    return cart.lines.map((l) => (l.lineId === lineId ? { ...l, quantity } : l));
  });
}

/** Removes a line. */
export async function removeLine(
  kv: Deno.Kv,
  clock: Clock,
  cartId: string,
  lineId: string,
): Promise<CartRecord> {
  return await updateCart(kv, clock, cartId, (cart) => {
    if (!cart.lines.some((l) => l.lineId === lineId)) {
      throw new NotFound(`This cart has no item ${lineId}`);
    }
    return Promise.resolve(cart.lines.filter((l) => l.lineId !== lineId));
  });
}

/**
 * Joins a guest cart to a user's cart at sign-in: the guest's lines are added to the user's cart
 * (quantities summed, capped), one cart is kept, and it is remembered for the user's other devices.
 * Returns the id of the cart to use from now on.
 */
export async function linkCartToUser(
  kv: Deno.Kv,
  clock: Clock,
  userId: string,
  guestCartId: string | null,
): Promise<string | null> {
  const userCartIdNow = await userCartId(kv, userId);
  const userCart = userCartIdNow ? await findCart(kv, clock, userCartIdNow) : null;
  const guest = guestCartId ? await findCart(kv, clock, guestCartId) : null;
  const guestOwnedByOther = guest?.value?.userId && guest.value.userId !== userId;
  if (!guest || guestOwnedByOther || guest.value!.id === userCart?.value?.id) {
    return userCart?.value?.id ?? null;
  }
  if (!userCart) {
    // The guest cart becomes the user's cart.
    await withRetries(
      async () => {
        const entry = await findCart(kv, clock, guest.value!.id);
        if (!entry) return null;
        const next = { ...entry.value!, userId, updatedAt: clock.now() };
        return await commitCart(kv, next, entry.versionstamp, userId) ? null : CONFLICT;
      },
      "link the cart",
      `cart:${guest.value!.id}`,
    );
    return guest.value!.id;
  }
  await updateCart(kv, clock, userCart.value!.id, (cart) => {
    const lines = [...cart.lines];
    for (const line of guest.value!.lines) {
      const same = lines.findIndex((l) => l.lineId === line.lineId);
      if (same >= 0) {
        lines[same] = {
          ...lines[same],
          quantity: Math.min(MAX_LINE_QUANTITY, lines[same].quantity + line.quantity),
          ...placeOf(lines[same], line),
        };
      } else if (lines.length < MAX_CART_LINES) lines.push(line);
    }
    return Promise.resolve(lines);
  });
  // The guest cart's lines now live in the user's cart; an emptied guest cart cannot be re-merged.
  await updateCart(kv, clock, guest.value!.id, () => Promise.resolve([]));
  return userCart.value!.id;
}
