import {
  addBom,
  type Bom,
  bomOf,
  type BomSubject,
  type Component,
  shortages,
  type StockKey,
  switchKey,
} from "../../shared/bom.ts";
import {
  type BodyColor,
  CUBE_SIZE,
  cubeCents,
  type CubeKeycaps,
  customTesterCents,
  type TesterKeycaps,
  type TesterSize,
} from "../../shared/pricing.ts";
import { Conflict, InvalidInput, NotFound } from "../errors.ts";
import { cubeBodyProblem, testerProblem } from "../../shared/build_rules.ts";
import type { Clock } from "../clock.ts";
import {
  getProduct,
  getSwitches,
  type ProductRecord,
  type SwitchRecord,
} from "../catalog/store.ts";
import { keys } from "../kv/keys.ts";
import { randomId } from "../crypto.ts";
import { CONFLICT, withRetries } from "../kv/kv_util.ts";
import { freeUnits } from "../stock/store.ts";
import { readStockVersion } from "../kv/version.ts";
import { describeShortages } from "../stock/names.ts";

/** Carts are kept this long after their last change. */
export const CART_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** Most units of one line, and most lines in a cart. */
export const MAX_LINE_QUANTITY = 20;
export const MAX_CART_LINES = 30;

/** What a line is, without its id and quantity. */
export type LineSpec =
  | { kind: "product"; productId: number }
  | {
    kind: "custom";
    size: TesterSize;
    keycaps: TesterKeycaps;
    bodyColor: BodyColor;
    switchIds: number[];
  }
  | { kind: "cube"; keycaps: CubeKeycaps; bodyColor: BodyColor; switchIds: number[] };

/**
 * A line of a cart, as stored: what it is. What it costs is computed on every read; what it cost
 * when added is kept only to tell the shopper that the price changed since.
 */
export type CartLine = {
  lineId: string;
  quantity: number;
  /** Cents one unit cost when last added (absent on lines stored before it was kept). */
  addedPriceCents?: number;
} & LineSpec;

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

/** The id a line gets: the product id, or a digest of a configuration so equal ones merge. */
export function lineIdOf(spec: LineSpec): string {
  if (spec.kind === "product") return String(spec.productId);
  const config = [
    spec.kind,
    "size" in spec ? spec.size : CUBE_SIZE,
    spec.keycaps,
    spec.bodyColor,
    ...[...spec.switchIds].sort((a, b) => a - b),
  ].join(",");
  // FNV-1a: a stable short digest; collisions inside one cart are vanishingly unlikely.
  let hash = 0x811c9dc5;
  for (let i = 0; i < config.length; i++) {
    hash = Math.imul(hash ^ config.charCodeAt(i), 0x01000193) >>> 0;
  }
  return `${spec.kind}-${hash.toString(16).padStart(8, "0")}`;
}

/** What one unit of a line consumes. */
export function lineBom(spec: LineSpec, product: ProductRecord | null): Bom {
  const subject: BomSubject = spec.kind === "product"
    ? product!.bom
    : spec.kind === "custom"
    ? { kind: "custom", size: spec.size, keycaps: spec.keycaps, switchIds: spec.switchIds }
    : { kind: "cube", keycaps: spec.keycaps, switchIds: spec.switchIds };
  return bomOf(subject);
}

/** What one unit of a line costs now, from its catalogue records (switches in line order). */
export function lineUnitCents(
  spec: LineSpec,
  product: ProductRecord | null,
  switches: readonly SwitchRecord[],
): number {
  if (spec.kind === "product") return product!.priceCents;
  const extras = switches.map((s) => s.extraPriceCents);
  return spec.kind === "custom"
    ? customTesterCents(spec.size, spec.keycaps, extras)
    : cubeCents(extras);
}

/**
 * Why a line cannot be bought any more, for the shopper: its product was taken off sale, or a
 * switch it holds was retired. Null when everything in it is still sold.
 */
export function unsoldReason(
  product: ProductRecord | null,
  switches: readonly SwitchRecord[],
): string | null {
  if (product) return product.onSale ? null : `${product.name} is no longer sold.`;
  const names = switches.filter((s) => s.retired).map((s) => `${s.brand} ${s.name}`);
  if (names.length === 0) return null;
  const list = names.length === 1
    ? names[0]
    : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `${list} ${names.length === 1 ? "is" : "are"} no longer sold; choose another switch.`;
}

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
  const expected = spec.kind === "custom" ? spec.size : CUBE_SIZE;
  const what = spec.kind === "custom" ? "a Custom Switch Tester" : "the Fidget Cube";
  if (new Set(spec.switchIds).size !== spec.switchIds.length) {
    throw new InvalidInput("Each switch can be chosen only once");
  }
  if (spec.switchIds.length !== expected) {
    throw new InvalidInput(
      `Please select ${expected} switches for ${what}. You've selected ${spec.switchIds.length}.`,
    );
  }
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
  /** Settles once the add may be stored (a new cart's count against its limit); may reject. */
  admitted?: Promise<unknown>;
}

/**
 * Adds a line (or more of an equal line) to a cart, creating the cart when there is no usable id.
 * Validates the configuration and that stock covers the new quantity.
 */
export async function addToCart(kv: Deno.Kv, clock: Clock, input: AddInput): Promise<CartRecord> {
  // The cart, the line's catalogue records and the stock version are read at once (one round trip
  // on a remote KV instead of three); the cart is read again only when the commit must retry.
  let firstRead: Promise<Deno.KvEntryMaybe<CartRecord> | null> | null = input.cartId
    ? findCart(kv, clock, input.cartId)
    : null;
  firstRead?.catch(() => {});
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
      const free = await ensureStock(kv, bom, quantity, input.spec);
      // Adding more of a line is agreeing to today's price: the line is priced from now on.
      const lines = existing
        ? cart.lines.map((l) => (l.lineId === lineId ? { ...l, quantity, addedPriceCents } : l))
        : [...cart.lines, { ...input.spec, lineId, quantity, addedPriceCents } as CartLine];
      const next = { ...cart, lines, updatedAt: now };
      await input.admitted;
      const ok = await commitCart(kv, next, entry?.versionstamp ?? null, !entry && next.userId);
      if (!ok) return CONFLICT;
      readsByCart.set(next, {
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
      await ensureStock(kv, lineBom(line, product), quantity);
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
 * The lines left once an order bought `bought` out of them: each bought line loses the units
 * bought (and goes when none are left); lines added, or units added, after the checkout began
 * stay for the next order.
 */
export function linesLeftAfter(
  lines: readonly CartLine[],
  bought: readonly { lineId: string; quantity: number }[],
): CartLine[] {
  const taken = new Map<string, number>();
  for (const { lineId, quantity } of bought) taken.set(lineId, (taken.get(lineId) ?? 0) + quantity);
  return lines.flatMap((line) => {
    const left = line.quantity - (taken.get(line.lineId) ?? 0);
    return left > 0 ? [{ ...line, quantity: left }] : [];
  });
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

async function updateCart(
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

async function commitCart(
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
  const userCartId = (await kv.get<string>(keys.userCart(userId))).value;
  const userCart = userCartId ? await findCart(kv, clock, userCartId) : null;
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
        };
      } else if (lines.length < MAX_CART_LINES) lines.push(line);
    }
    return Promise.resolve(lines);
  });
  // The guest cart's lines now live in the user's cart; an emptied guest cart cannot be re-merged.
  await updateCart(kv, clock, guest.value!.id, () => Promise.resolve([]));
  return userCart.value!.id;
}
