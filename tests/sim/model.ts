/**
 * The plain model of what should be: what shoppers put in their carts and started paying for,
 * what the owner set, what was counted onto the shelves. It holds facts of the history, never a
 * second copy of the shop's rules; the invariants compare the shop's store with it.
 */
import type { StockKey } from "../../shared/bom.ts";
import { PRODUCTS } from "../../shared/catalog/products.ts";

/** A shopper of the history. */
export interface ShopperModel {
  index: number;
  /** The address their requests come from (limits count per client). */
  client: string;
  /** Their mailbox; the history spells it several ways (case, +tags, dots). */
  email: string;
  cartId: string | null;
  /** Set once they signed up. */
  password: string | null;
}

/** A cart as its shopper knows it. */
export interface CartModel {
  id: string;
  shopper: number;
  /** Units of each line the shopper expects to see in the cart. */
  lines: Map<string, number>;
  /** Units of each line the shopper ever put in (adds, and raised quantities). */
  put: Map<string, number>;
  /** Units of each line that orders of this cart were paid for. */
  bought: Map<string, number>;
  /** Every state the lines were in, oldest first (a checkout holds one of those of its time). */
  states: string[];
}

/** A cart's lines as one comparable text. */
export function linesText(lines: Map<string, number> | [string, number][]): string {
  return JSON.stringify([...lines].sort());
}

/** Records the cart's lines as they are now (after every change). */
export function noteState(cart: CartModel): void {
  cart.states.push(linesText(cart.lines));
}

/** A checkout the shop accepted. */
export interface CheckoutModel {
  orderNumber: string;
  cartId: string;
  shopper: number;
  mode: "hosted" | "embedded";
  region: "us" | "international";
  /** The demo session or intent id. */
  paymentId: string;
}

/** A promo code as the owner last set it. */
export interface PromoModel {
  code: string;
  percentOff: number;
  maxUses: number | null;
  maxUsesPerEmail: number | null;
  /** Paid uses as last seen, and per person (normalised mailbox). */
  uses: number;
  usesByPerson: Map<string, number>;
}

/** The owner's low-stock level of a component, from the step it was set at. */
export interface LevelSet {
  step: number;
  level: number;
}

/** A back-in-stock sign-up. */
export interface AlertSignUp {
  email: string;
  switchId: number;
  name: string;
  /** Step of the sign-up: returns to stock after it count. */
  step: number;
}

/** Everything the model knows. */
export interface Model {
  shoppers: ShopperModel[];
  carts: Map<string, CartModel>;
  checkouts: CheckoutModel[];
  /**
   * Units counted onto each shelf that were not sold: the seed's count, then the owner's counts
   * (each resets it to what the owner entered plus what had sold). Shelf plus sold units must
   * always add up to it.
   */
  counted: Map<StockKey, number>;
  levels: Map<StockKey, LevelSet[]>;
  /** Prices in cents of the products in play, as the owner last set them. */
  prices: Map<number, number>;
  /** Every price each product had, from when (the seed's from the start). */
  priceLog: Map<number, { from: number; cents: number }[]>;
  promos: Map<string, PromoModel>;
  /** Password reset emails owed, per mailbox, and requests counted per mailbox and hour. */
  resetsOwed: Map<string, number>;
  resetWindows: Map<string, number>;
  contactsOwed: number;
  /** The staff API key the history's packing script acts with (made at set-up). */
  staffKey: string;
  alerts: AlertSignUp[];
  /**
   * Back-in-stock confirmations that may be owed, per address: one at most per sign-up the shop
   * accepted (the shop sends fewer: none while a link is live, one an hour, three a day per
   * mailbox).
   */
  alertConfirmations: Map<string, number>;
  /**
   * Addresses that confirmed back-in-stock emails, at the step of their latest confirmation: a
   * sign-up is told only if one came at or after it.
   */
  alertConfirmed: Map<string, number>;
  /** Order numbers seen paid (history holds PAYMENT_RECEIVED). */
  paid: Set<string>;
  /** Each order's hold end when first seen (before any extension), by order number. */
  holdEnds: Map<string, number>;
  /** Order numbers the shop answered an extension of the hold for (200). */
  extended: Set<string>;
}

/** The default low-stock level (the shop's default: the owner has not set one). */
export const DEFAULT_LEVEL = 10;

/** The shop's seeded promo code: 16% off, no limits. */
export const OPEN_CODE = "LATEDELIVERY";
/** Codes each history creates: a total limit, and a limit per person. */
export const LIMITED_CODE = "SIMLIMIT";
export const PER_PERSON_CODE = "SIMONCE";

/** A new model for `shoppers` shoppers. */
export function newModel(shoppers: number, stock: Map<StockKey, number>): Model {
  return {
    shoppers: Array.from({ length: shoppers }, (_, index) => ({
      index,
      client: `10.0.0.${index + 1}`,
      email: index % 2 === 0 ? `shopper${index}@gmail.com` : `buyer${index}@example.com`,
      cartId: null,
      password: null,
    })),
    carts: new Map(),
    checkouts: [],
    counted: new Map(stock),
    levels: new Map(),
    prices: new Map(PRODUCTS.map((p) => [p.id, p.priceCents])),
    priceLog: new Map(PRODUCTS.map((p) => [p.id, [{ from: -Infinity, cents: p.priceCents }]])),
    promos: new Map([[OPEN_CODE, {
      code: OPEN_CODE,
      percentOff: 16,
      maxUses: null,
      maxUsesPerEmail: null,
      uses: 0,
      usesByPerson: new Map(),
    }]]),
    resetsOwed: new Map(),
    resetWindows: new Map(),
    contactsOwed: 0,
    staffKey: "",
    alerts: [],
    alertConfirmations: new Map(),
    alertConfirmed: new Map(),
    paid: new Set(),
    holdEnds: new Map(),
    extended: new Set(),
  };
}

/**
 * How long a process may answer from what it read of the catalogue: another process's edit shows
 * within this (the shop's stated staleness of its per-version views, 250 ms).
 */
export const CATALOGUE_STALENESS_MS = 250;

/** Sets a product's price from `at` on. */
export function setPrice(model: Model, id: number, cents: number, at: number): void {
  model.prices.set(id, cents);
  model.priceLog.get(id)!.push({ from: at, cents });
}

/** The prices a product may be sold at `now`: in force then, or less than 250 ms before. */
export function pricesAt(model: Model, id: number, now: number): number[] {
  const log = model.priceLog.get(id) ?? [];
  return log.filter((p, i) => {
    const until = log[i + 1]?.from ?? Infinity;
    return p.from <= now && until > now - CATALOGUE_STALENESS_MS;
  }).map((p) => p.cents);
}

/** The owner's level of `key` in force at `step`. */
export function levelAt(model: Model, key: StockKey, step: number): number {
  let level = DEFAULT_LEVEL;
  for (const set of model.levels.get(key) ?? []) if (set.step <= step) level = set.level;
  return level;
}

/** The owner's current level of `key`. */
export function currentLevel(model: Model, key: StockKey): number {
  return levelAt(model, key, Infinity);
}

/**
 * One person however their mailbox is spelled: case, a +tag, and the dots Gmail ignores. The
 * model's own statement of who is the same person, for per-person promo limits.
 */
export function personOf(email: string): string {
  const [rawLocal, rawDomain] = email.trim().toLowerCase().split("@");
  const domain = rawDomain === "googlemail.com" ? "gmail.com" : rawDomain;
  let local = rawLocal.split("+")[0];
  if (domain === "gmail.com") local = local.replaceAll(".", "");
  return `${local}@${domain}`;
}

/**
 * The ways a history spells a shopper's mailbox: as it is, shouting, with a +tag, and (for Gmail)
 * with a dot, all one person.
 */
export function spellings(email: string): string[] {
  const [local, domain] = email.split("@");
  const dotted = domain === "gmail.com" ? `${local.slice(0, 4)}.${local.slice(4)}@${domain}` : null;
  return [email, email.toUpperCase(), `${local}+sim@${domain}`, dotted ?? `${local}+x@${domain}`];
}

/** Adds `n` to a count in a map. */
export function addTo<K>(map: Map<K, number>, key: K, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}
