/**
 * Order statuses, their allowed moves and how the tracking page and admin tables present them
 * (docs/product.md#order-status; docs/decisions.md#order-status-moves). The server checks every
 * move here.
 */
import { normaliseTrackingNumber } from "./tracking_number.ts";

/** Every status an order can have: the five forward steps, then the two dead ends. */
export const ORDER_STATUSES = [
  "STARTED",
  "PAYMENT_RECEIVED",
  "PROCESSING",
  "SHIPPED",
  "DELIVERED",
  "CANCELLED",
  "EXPIRED",
] as const;

/** One of ORDER_STATUSES. */
export type OrderStatus = typeof ORDER_STATUSES[number];

/** One step of the tracking page's progress bar. */
export interface ProgressStep {
  status: OrderStatus;
  label: string;
  /** How full the bar is when this is the current step. */
  percent: number;
}

/** The progress bar's steps in order; CANCELLED and EXPIRED have no place on it. */
export const PROGRESS_STEPS: readonly ProgressStep[] = [
  { status: "STARTED", label: "Order placed", percent: 5 },
  { status: "PAYMENT_RECEIVED", label: "Payment received", percent: 29 },
  { status: "PROCESSING", label: "Processing", percent: 55 },
  { status: "SHIPPED", label: "Shipped", percent: 76 },
  { status: "DELIVERED", label: "Delivered", percent: 100 },
];

/** Position of the status on the progress bar, or -1 for CANCELLED and EXPIRED. */
export function stepIndex(status: OrderStatus): number {
  return PROGRESS_STEPS.findIndex((step) => step.status === status);
}

/** How full the progress bar is; 0 for CANCELLED and EXPIRED, which left the forward path. */
export function progressPercent(status: OrderStatus): number {
  return PROGRESS_STEPS[stepIndex(status)]?.percent ?? 0;
}

/**
 * The only moves allowed: forward one step at a time, CANCELLED from any status before SHIPPED
 * (the payment is refunded and stock released) and EXPIRED from STARTED (the reservation
 * lapsed). DELIVERED, CANCELLED and EXPIRED are final.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  STARTED: ["PAYMENT_RECEIVED", "EXPIRED", "CANCELLED"],
  PAYMENT_RECEIVED: ["PROCESSING", "CANCELLED"],
  PROCESSING: ["SHIPPED", "CANCELLED"],
  SHIPPED: ["DELIVERED"],
  DELIVERED: [],
  CANCELLED: [],
  EXPIRED: [],
};

/** Whether an order may move from one status to the other; staying put is not a move. */
export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

/** Whether the order can still be cancelled: not yet shipped and not already closed. */
export function isCancellable(status: OrderStatus): boolean {
  return canTransition(status, "CANCELLED");
}

/** Whether the order is a sale: paid and not cancelled (the Sales tab and stock runway count these). */
export function isSale(status: OrderStatus): boolean {
  return isNewForAdmin(status) || isProcessedForAdmin(status);
}

/** Whether the order belongs in the admin's 'New' table (paid, not yet shipped). */
export function isNewForAdmin(status: OrderStatus): boolean {
  return status === "PAYMENT_RECEIVED" || status === "PROCESSING";
}

/**
 * Whether Ship Orders ships the order: printed (PROCESSING) and labelled (a tracking number).
 * The dashboard lists these before asking, and the server ships by the same rule.
 */
export function isReadyToShip(
  order: { status: OrderStatus; trackingNumber: string | null | undefined },
): boolean {
  return order.status === "PROCESSING" && !!order.trackingNumber;
}

/** Whether the order belongs in the admin's 'Processed' table. */
export function isProcessedForAdmin(status: OrderStatus): boolean {
  return status === "SHIPPED" || status === "DELIVERED";
}

/**
 * The text shown in place of the tracking link, or null when there is a number to link to. A
 * blank number counts as none. CANCELLED and EXPIRED orders say 'not available', since no
 * number will ever come.
 */
export function trackingText(
  status: OrderStatus,
  trackingNumber: string | null | undefined,
): string | null {
  if (trackingNumber && trackingNumber.trim() !== "") return null;
  if (status === "STARTED" || status === "PAYMENT_RECEIVED") {
    return "Tracking number will be available after order is processed";
  }
  return "Tracking number not available";
}

/**
 * Human labels for every status: the forward ones are the progress bar's, so the admin and the
 * shopper read the same words; the two dead ends, which have no step, add their own.
 */
export const STATUS_LABELS = {
  ...Object.fromEntries(PROGRESS_STEPS.map((step) => [step.status, step.label])),
  CANCELLED: "Cancelled",
  EXPIRED: "Expired",
} as Readonly<Record<OrderStatus, string>>;

/**
 * The USPS tracking page for a number. Normalised here too, because orders stored before numbers
 * were normalised on write may hold spaces (USPS finds nothing for "9400%201000"); encoded all the
 * same, since a stored number is data.
 */
export function carrierTrackingUrl(trackingNumber: string): string {
  return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${
    encodeURIComponent(normaliseTrackingNumber(trackingNumber))
  }`;
}
