import { escapeHtml } from "../../shared/html.ts";
import { formatCents } from "../../shared/pricing.ts";
import { SHOP_NAME } from "../../shared/policy.ts";
import { carrierTrackingUrl } from "../../shared/status.ts";
import type { Order } from "../orders/order.ts";
import type { Email } from "./mailer.ts";

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
