/**
 * The shop's business facts and the decisions where the spec contradicts itself, in one place
 * (docs/decisions.md, docs/product.md#shipping-and-tax). Money is integer cents.
 */

import { formatCents, STARTING_PRICE_CENTS } from "./pricing.ts";

/** The shop's name until the owner renames it. */
export const SHOP_NAME = "Switch Tester Shop";

/** Contact address shown on the contact page and in emails. */
export const SHOP_CONTACT_EMAIL = "hello@switchtester.shop";

/** Home page claims; the starting price follows the prices themselves. */
export const STARTING_PRICE_TEXT = `Starting at ${formatCents(STARTING_PRICE_CENTS)}`;
export const SWITCH_COUNT_TEXT = "100+ unique switches";

/** Shipping: $7.99 in the US (free from $50 after discount), $22.99 international. */
export const SHIPPING_US_CENTS = 799;
export const SHIPPING_INTERNATIONAL_CENTS = 2299;
export const FREE_SHIPPING_THRESHOLD_CENTS = 5000;

/** Estimated sales tax on (subtotal - discount), in percent. */
export const TAX_PERCENT = 10;

/** Where the order ships to. */
export type Region = "us" | "international";

/** Policy facts, as the terms, FAQ and shipping policy state them. */
export const POLICY = {
  processingDays: "1-2 business days",
  domesticDelivery: "3-5 business days",
  internationalDelivery: "1-3 weeks",
  trackingWithin: "48 hours",
  refundDays: "1-3 business days",
  termsUpdated: "April 2025",
  termsNoticeDays: 30,
  governingLaw: "the State of California",
  returns: "We do not accept returns. You can cancel for a full refund until your order ships.",
} as const;

/** Timings of the interface, in milliseconds. */
export const TIMINGS = {
  logoColorMs: 1000,
  badgePulseMs: 300,
  headerHideThresholdPx: 50,
  reviewsAutoplayMs: 7000,
  addButtonLockMs: 1000,
  toastMs: 2000,
  /** Errors stay longer than the spec's 2 s: a sentence to read and act on (WCAG 2.2.1). */
  errorToastMs: 6000,
  toastMaxVisible: 3,
  testerToastMs: 5000,
  zipEstimateDelayMs: 500,
} as const;

/**
 * Most of one cart line. A tester is a one-person tool: ten covers a club's or a family's round
 * of gifts, which is the most a shopper buys of one configuration; a larger order is a bulk order
 * to agree with the shop by email. It also keeps one line well inside what one client may hold at
 * once (MAX_HELD_UNITS_PER_CLIENT, 60 by default).
 */
export const MAX_LINE_QUANTITY = 10;

/** Longest contact message. */
export const CONTACT_MESSAGE_MAX = 800;

/** Shipping for a region and subtotal after discount. */
export function shippingCents(region: Region, subtotalAfterDiscountCents: number): number {
  if (region === "international") return SHIPPING_INTERNATIONAL_CENTS;
  return subtotalAfterDiscountCents >= FREE_SHIPPING_THRESHOLD_CENTS ? 0 : SHIPPING_US_CENTS;
}

/** Estimated tax, rounded to the nearest cent. */
export function taxCents(subtotalAfterDiscountCents: number): number {
  return Math.round(subtotalAfterDiscountCents * TAX_PERCENT / 100);
}

/** What a promo code takes off the subtotal: a percentage, or an amount in cents. */
export interface PromoDiscount {
  percentOff?: number | null;
  amountOffCents?: number | null;
}

/**
 * Discount of a promo code on a subtotal (a number is a percentage): a percentage rounds to the
 * nearest cent, and an amount off never takes the subtotal below $0.
 */
export function discountCents(subtotalCents: number, discount: PromoDiscount | number): number {
  const { percentOff, amountOffCents } = typeof discount === "number"
    ? { percentOff: discount, amountOffCents: null }
    : discount;
  if (amountOffCents) return Math.min(subtotalCents, amountOffCents);
  return Math.round(subtotalCents * (percentOff ?? 0) / 100);
}

/** The full money breakdown of an order. */
export interface Totals {
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
}

/** Computes an order's totals from its subtotal, region and promo discount (or percentage). */
export function computeTotals(
  subtotal: number,
  region: Region,
  promo: PromoDiscount | number = 0,
): Totals {
  const discount = discountCents(subtotal, promo);
  const afterDiscount = subtotal - discount;
  const shipping = subtotal === 0 ? 0 : shippingCents(region, afterDiscount);
  // US sales tax only: exports carry none (the team's design, docs/decisions.md#tax).
  const tax = region === "us" ? taxCents(afterDiscount) : 0;
  return {
    subtotalCents: subtotal,
    discountCents: discount,
    shippingCents: shipping,
    taxCents: tax,
    totalCents: afterDiscount + shipping + tax,
  };
}
