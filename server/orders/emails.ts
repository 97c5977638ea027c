import { escapeHtml } from "../../shared/html.ts";
import { formatCents } from "../../shared/pricing.ts";
import { POLICY, SHOP_NAME } from "../../shared/policy.ts";
import { carrierTrackingUrl } from "../../shared/status.ts";
import type { Order } from "./order.ts";
import type { Email } from "../email/mailer.ts";

function itemLines(order: Order): string[] {
  return order.items.map((i) =>
    `${i.quantity} × ${i.name}${i.size ? ` (${i.size} switches)` : ""} — ${
      formatCents(i.priceCents * i.quantity)
    }`
  );
}

function totalsLines(order: Order): string[] {
  return [
    `Subtotal: ${formatCents(order.subtotalCents)}`,
    ...(order.discountCents > 0 ? [`Discount: -${formatCents(order.discountCents)}`] : []),
    `Shipping: ${formatCents(order.shippingCents)}`,
    `Estimated tax: ${formatCents(order.taxCents)}`,
    `Total: ${formatCents(order.totalCents)}`,
  ];
}

function html(paragraphs: string[], lists: string[][]): string {
  return [
    ...paragraphs.map((p) => `<p>${p}</p>`),
    ...lists.map((l) => `<ul>${l.map((li) => `<li>${escapeHtml(li)}</li>`).join("")}</ul>`),
  ].join("\n");
}

/** The order confirmation sent once when a payment is recorded. */
export function orderConfirmationEmail(order: Order, origin: string): Email {
  const trackUrl = `${origin}/order/track/${order.orderNumber}`;
  const greeting = order.customerName ? `Hi ${order.customerName},` : "Hi,";
  return {
    to: order.email ?? "",
    subject: `${SHOP_NAME}: order ${order.orderNumber} confirmed`,
    text: [
      greeting,
      "",
      `Thank you for your order! We received your payment for order ${order.orderNumber}.`,
      "",
      ...itemLines(order),
      "",
      ...totalsLines(order),
      "",
      `Track your order: ${trackUrl}`,
      "Tracking numbers are usually added within 48 hours.",
    ].join("\n"),
    html: html([
      escapeHtml(greeting),
      `Thank you for your order! We received your payment for order <strong>${
        escapeHtml(order.orderNumber)
      }</strong>.`,
      `<a href="${
        escapeHtml(trackUrl)
      }">Track your order</a>. Tracking numbers are usually added within 48 hours.`,
    ], [itemLines(order), totalsLines(order)]),
  };
}

/** The shipped email with the carrier's tracking link, sent once when the order ships. */
export function orderShippedEmail(order: Order, origin: string): Email {
  const carrier = carrierTrackingUrl(order.trackingNumber ?? "");
  const trackUrl = `${origin}/order/track/${order.orderNumber}`;
  return {
    to: order.email ?? "",
    subject: `${SHOP_NAME}: order ${order.orderNumber} has shipped`,
    text: [
      `Good news: order ${order.orderNumber} is on its way.`,
      "",
      `Tracking number: ${order.trackingNumber}`,
      `Follow it with the carrier: ${carrier}`,
      `Your order page: ${trackUrl}`,
      "",
      ...itemLines(order),
    ].join("\n"),
    html: html([
      `Good news: order <strong>${escapeHtml(order.orderNumber)}</strong> is on its way.`,
      `Tracking number: <a href="${escapeHtml(carrier)}">${
        escapeHtml(order.trackingNumber ?? "")
      }</a>`,
      `<a href="${escapeHtml(trackUrl)}">Your order page</a>`,
    ], [itemLines(order)]),
  };
}

/** What an item is made of, for the owner (who prints it) and the packing slip. */
function itemDetailLines(order: Order): string[] {
  return order.items.map((i) => {
    const parts = [`${i.quantity} × ${i.name}${i.size ? ` (${i.size} switches)` : ""}`];
    if (i.keycaps && i.keycaps !== "none") parts.push(`keycaps: ${i.keycaps}`);
    if (i.bodyColor) parts.push(`body: ${i.bodyColor}`);
    if (i.switches.length) {
      parts.push(`switches: ${i.switches.map((s) => `${s.brand} ${s.name}`).join(", ")}`);
    }
    return `${parts.join("; ")} — ${formatCents(i.priceCents * i.quantity)}`;
  });
}

function addressLines(order: Order): string[] {
  const a = order.shippingAddress;
  if (!a) return ["(no shipping address)"];
  return [
    order.customerName ?? "",
    a.street,
    ...(a.apartment ? [a.apartment] : []),
    [a.city, a.state, a.zipCode].filter(Boolean).join(", "),
    a.country,
  ].filter((l) => l !== "");
}

function paragraphs(lines: string[]): string {
  return lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("\n");
}

/** The owner's note of a new paid order: what to print and where it goes. */
export function ownerOrderEmail(order: Order, origin: string, shopEmail: string): Email {
  return {
    to: shopEmail,
    subject: `New order ${order.orderNumber}: ${formatCents(order.totalCents)}`,
    text: [
      `A new order was paid: ${order.orderNumber}.`,
      `Customer: ${order.customerName ?? "(no name)"} <${order.email ?? "no email"}>`,
      "",
      ...itemDetailLines(order),
      "",
      ...totalsLines(order),
      ...(order.promoCode ? [`Promo code: ${order.promoCode}`] : []),
      ...(order.taxId ? [`VAT or Tax ID: ${order.taxId.value}`] : []),
      "",
      "Ship to:",
      ...addressLines(order),
      "",
      `Open the dashboard: ${origin}/admin`,
    ].join("\n"),
    html: [
      `<p>A new order was paid: <strong>${escapeHtml(order.orderNumber)}</strong>.</p>`,
      paragraphs([`Customer: ${order.customerName ?? "(no name)"} <${order.email ?? "no email"}>`]),
      html([], [itemDetailLines(order), totalsLines(order)]),
      `<p>Ship to:</p>`,
      `<p style="overflow-wrap:anywhere">${addressLines(order).map(escapeHtml).join("<br>")}</p>`,
      `<p><a href="${escapeHtml(`${origin}/admin`)}">Open the dashboard</a></p>`,
    ].join("\n"),
  };
}

/** The owner's note of a cancellation, with who cancelled and what is refunded. */
export function ownerCancelledEmail(order: Order, origin: string, shopEmail: string): Email {
  const refund = order.refund ? formatCents(order.refund.amountCents) : formatCents(0);
  const lines = [
    `Order ${order.orderNumber} was cancelled.`,
    `Reason: ${order.cancelReason ?? "not given"}`,
    `Refund: ${refund} to ${order.customerName ?? "the customer"} <${order.email ?? "no email"}>`,
    "The stock it held is back on the shelf.",
  ];
  return {
    to: shopEmail,
    subject: `Order ${order.orderNumber} cancelled: ${refund} refunded`,
    text: [...lines, "", ...itemDetailLines(order), "", `Open the dashboard: ${origin}/admin`]
      .join("\n"),
    html: [
      paragraphs(lines),
      html([], [itemDetailLines(order)]),
      `<p><a href="${escapeHtml(`${origin}/admin`)}">Open the dashboard</a></p>`,
    ].join("\n"),
  };
}

function greetingOf(order: Order): string {
  return order.customerName ? `Hi ${order.customerName},` : "Hi,";
}

/** Sent when a tracking number is first added: the order is being printed and packed. */
export function orderPrintingEmail(order: Order, origin: string): Email {
  const trackUrl = `${origin}/order/track/${order.orderNumber}`;
  const lines = [
    greetingOf(order),
    `We're printing order ${order.orderNumber} now. It has a tracking number (${order.trackingNumber}) and we'll tell you when it ships.`,
  ];
  return {
    to: order.email ?? "",
    subject: `${SHOP_NAME}: we're printing order ${order.orderNumber}`,
    text: [...lines, "", ...itemLines(order), "", `Your order page: ${trackUrl}`].join("\n"),
    html: [
      paragraphs(lines),
      html([], [itemLines(order)]),
      `<p><a href="${escapeHtml(trackUrl)}">Your order page</a></p>`,
    ].join("\n"),
  };
}

/** Sent when the owner marks the order delivered. */
export function orderDeliveredEmail(order: Order, origin: string): Email {
  const trackUrl = `${origin}/order/track/${order.orderNumber}`;
  const lines = [
    greetingOf(order),
    `Order ${order.orderNumber} has been delivered. We hope you enjoy your switches!`,
    "If anything arrived damaged or missing, reply to this email and we will make it right.",
  ];
  return {
    to: order.email ?? "",
    subject: `${SHOP_NAME}: order ${order.orderNumber} delivered`,
    text: [...lines, "", `Your order page: ${trackUrl}`].join("\n"),
    html: [paragraphs(lines), `<p><a href="${escapeHtml(trackUrl)}">Your order page</a></p>`]
      .join("\n"),
  };
}

/** Sent when an order is cancelled, with the refund the shopper gets. */
export function orderCancelledEmail(order: Order, origin: string): Email {
  const trackUrl = `${origin}/order/track/${order.orderNumber}`;
  const refund = order.refund?.amountCents ?? 0;
  const lines = [
    greetingOf(order),
    `Order ${order.orderNumber} has been cancelled.`,
    ...(order.cancelReason ? [order.cancelReason] : []),
    refund > 0
      ? `We are refunding ${
        formatCents(refund)
      } in full to the card you paid with; refunds take ${POLICY.refundDays}.`
      : "Nothing was charged.",
  ];
  return {
    to: order.email ?? "",
    subject: `${SHOP_NAME}: order ${order.orderNumber} cancelled`,
    text: [...lines, "", ...itemLines(order), "", `Your order page: ${trackUrl}`].join("\n"),
    html: [
      paragraphs(lines),
      html([], [itemLines(order)]),
      `<p><a href="${escapeHtml(trackUrl)}">Your order page</a></p>`,
    ].join("\n"),
  };
}

/**
 * A refund the payment provider keeps refusing, or one it accepted and then failed: the money has
 * not gone back, and the owner must see to it.
 */
export function refundTroubleEmail(
  trouble: { orderNumber: string; amountCents: number; customer: string; problem: string },
  origin: string,
  shopEmail: string,
): Email {
  const lines = [
    `The refund of ${
      formatCents(trouble.amountCents)
    } for order ${trouble.orderNumber} (${trouble.customer}) has not gone through.`,
    trouble.problem,
    "Look the payment up in your payment provider's dashboard; the order's page in the dashboard shows the refund's state.",
  ];
  return {
    to: shopEmail,
    subject: `Refund for order ${trouble.orderNumber} needs you`,
    text: [...lines, "", `Open the dashboard: ${origin}/admin`].join("\n"),
    html: [
      paragraphs(lines),
      `<p><a href="${escapeHtml(`${origin}/admin`)}">Open the dashboard</a></p>`,
    ].join("\n"),
  };
}
