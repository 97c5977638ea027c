import assert from "node:assert/strict";
import {
  canTransition,
  carrierTrackingUrl,
  isCancellable,
  isNewForAdmin,
  isProcessedForAdmin,
  isReadyToShip,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  type OrderStatus,
  PROGRESS_STEPS,
  progressPercent,
  STATUS_LABELS,
  stepIndex,
  trackingText,
} from "../../shared/status.ts";

const ALLOWED: [OrderStatus, OrderStatus][] = [
  ["STARTED", "PAYMENT_RECEIVED"],
  ["STARTED", "EXPIRED"],
  ["STARTED", "CANCELLED"],
  ["PAYMENT_RECEIVED", "PROCESSING"],
  ["PAYMENT_RECEIVED", "CANCELLED"],
  ["PROCESSING", "SHIPPED"],
  ["PROCESSING", "CANCELLED"],
  ["SHIPPED", "DELIVERED"],
];

const isAllowed = (from: OrderStatus, to: OrderStatus) =>
  ALLOWED.some(([f, t]) => f === from && t === to);

Deno.test("ORDER_STATUSES lists the seven statuses in order", () => {
  assert.deepEqual([...ORDER_STATUSES], [
    "STARTED",
    "PAYMENT_RECEIVED",
    "PROCESSING",
    "SHIPPED",
    "DELIVERED",
    "CANCELLED",
    "EXPIRED",
  ]);
});

Deno.test("progress steps: labels and percentages", () => {
  assert.deepEqual(PROGRESS_STEPS.map((s) => [s.status, s.label, s.percent]), [
    ["STARTED", "Order placed", 5],
    ["PAYMENT_RECEIVED", "Payment received", 29],
    ["PROCESSING", "Processing", 55],
    ["SHIPPED", "Shipped", 76],
    ["DELIVERED", "Delivered", 100],
  ]);
});

Deno.test("progressPercent for every status", () => {
  const expected: Record<OrderStatus, number> = {
    STARTED: 5,
    PAYMENT_RECEIVED: 29,
    PROCESSING: 55,
    SHIPPED: 76,
    DELIVERED: 100,
    CANCELLED: 0,
    EXPIRED: 0,
  };
  for (const status of ORDER_STATUSES) {
    assert.equal(progressPercent(status), expected[status], status);
  }
});

Deno.test("stepIndex for every status", () => {
  const expected: Record<OrderStatus, number> = {
    STARTED: 0,
    PAYMENT_RECEIVED: 1,
    PROCESSING: 2,
    SHIPPED: 3,
    DELIVERED: 4,
    CANCELLED: -1,
    EXPIRED: -1,
  };
  for (const status of ORDER_STATUSES) {
    assert.equal(stepIndex(status), expected[status], status);
  }
});

Deno.test("every allowed transition is allowed", () => {
  for (const [from, to] of ALLOWED) {
    assert.equal(canTransition(from, to), true, `${from} -> ${to}`);
  }
});

Deno.test("every other pair is refused, including staying put", () => {
  let refused = 0;
  for (const from of ORDER_STATUSES) {
    for (const to of ORDER_STATUSES) {
      if (isAllowed(from, to)) continue;
      assert.equal(canTransition(from, to), false, `${from} -> ${to}`);
      refused++;
    }
  }
  assert.equal(refused, 7 * 7 - ALLOWED.length);
});

Deno.test("the table holds exactly the allowed moves", () => {
  const pairs = Object.entries(ORDER_TRANSITIONS).flatMap(([from, tos]) =>
    tos.map((to) => `${from}->${to}`)
  ).sort();
  assert.deepEqual(pairs, ALLOWED.map(([f, t]) => `${f}->${t}`).sort());
});

Deno.test("isCancellable: only before shipping and not already closed", () => {
  const expected: Record<OrderStatus, boolean> = {
    STARTED: true,
    PAYMENT_RECEIVED: true,
    PROCESSING: true,
    SHIPPED: false,
    DELIVERED: false,
    CANCELLED: false,
    EXPIRED: false,
  };
  for (const status of ORDER_STATUSES) {
    assert.equal(isCancellable(status), expected[status], status);
  }
});

Deno.test("admin tables: New holds PAYMENT_RECEIVED and PROCESSING", () => {
  const news = ORDER_STATUSES.filter(isNewForAdmin);
  assert.deepEqual(news, ["PAYMENT_RECEIVED", "PROCESSING"]);
});

Deno.test("admin tables: Processed holds SHIPPED and DELIVERED", () => {
  const processed = ORDER_STATUSES.filter(isProcessedForAdmin);
  assert.deepEqual(processed, ["SHIPPED", "DELIVERED"]);
});

Deno.test("trackingText is null whenever there is a tracking number", () => {
  for (const status of ORDER_STATUSES) {
    assert.equal(trackingText(status, "9400111899223344551234"), null, status);
  }
});

Deno.test("trackingText without a number, for every status", () => {
  const later = "Tracking number will be available after order is processed";
  const none = "Tracking number not available";
  const expected: Record<OrderStatus, string> = {
    STARTED: later,
    PAYMENT_RECEIVED: later,
    PROCESSING: none,
    SHIPPED: none,
    DELIVERED: none,
    CANCELLED: none,
    EXPIRED: none,
  };
  for (const status of ORDER_STATUSES) {
    for (const missing of [null, undefined, "", "   "]) {
      assert.equal(trackingText(status, missing), expected[status], `${status} ${missing}`);
    }
  }
});

Deno.test("STATUS_LABELS has a label for every status", () => {
  assert.deepEqual(STATUS_LABELS, {
    STARTED: "Order placed",
    PAYMENT_RECEIVED: "Payment received",
    PROCESSING: "Processing",
    SHIPPED: "Shipped",
    DELIVERED: "Delivered",
    CANCELLED: "Cancelled",
    EXPIRED: "Expired",
  });
});

Deno.test("carrierTrackingUrl points at USPS with the number as a query value", () => {
  assert.equal(
    carrierTrackingUrl("9400111899223344551234"),
    "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223344551234",
  );
});

Deno.test("carrierTrackingUrl encodes characters that would break the query", () => {
  const url = carrierTrackingUrl("AB12&x=1#frag/?");
  assert.equal(
    url,
    "https://tools.usps.com/go/TrackConfirmAction?tLabels=AB12%26X%3D1%23FRAG%2F%3F",
  );
  const parsed = new URL(url);
  assert.equal(parsed.searchParams.get("tLabels"), "AB12&X=1#FRAG/?");
  assert.equal(parsed.searchParams.has("x"), false);
  assert.equal(parsed.hash, "");
});

Deno.test("an order is ready to ship when it is PROCESSING with a tracking number", () => {
  assert.equal(
    isReadyToShip({ status: "PROCESSING", trackingNumber: "9400111899223344551234" }),
    true,
  );
  assert.equal(isReadyToShip({ status: "PROCESSING", trackingNumber: null }), false);
  assert.equal(isReadyToShip({ status: "PROCESSING", trackingNumber: "" }), false);
  assert.equal(isReadyToShip({ status: "PAYMENT_RECEIVED", trackingNumber: "9400" }), false);
  assert.equal(isReadyToShip({ status: "SHIPPED", trackingNumber: "9400" }), false);
});
