/**
 * An order as people see it, both views in one place: the shopper's tracking view (no full email
 * or street address) and the owner's dashboard view (everything, with image URLs). Their shapes
 * are `PublicOrderView` and `AdminOrderView` in shared/api_types.ts.
 */
import { cubeImageUrl, itemImageUrl, packImageUrl, switchImageUrl } from "../../shared/images.ts";
import { maskAddress, maskEmail } from "../../shared/mask.ts";
import type { AdminOrderView, PublicOrderView } from "../../shared/api_types.ts";
import { extensionMinutes } from "./hold_extension.ts";
import { toDollars } from "../../shared/pricing.ts";
import { carrierTrackingUrl, progressPercent, trackingText } from "../../shared/status.ts";
import { isHolding, type Order, type OrderItem } from "./order.ts";

/** The image URL of an order item. */
export function orderItemImageUrl(item: OrderItem, base: string): string {
  if (item.kind === "cube") {
    return cubeImageUrl(base, item.keycaps ?? "white", item.bodyColor ?? "white");
  }
  if (item.kind === "custom") return itemImageUrl(base, "custom-tester");
  return item.image.startsWith("pack-")
    ? packImageUrl(base, item.image)
    : itemImageUrl(base, item.image);
}

/**
 * The public view of an order for its tracking page. `holdExtensionMinutes` is what the shop's
 * one extension of a hold adds (config; a drop's hold adds its own length), offered while the hold
 * may still be extended.
 */
export function publicOrderView(
  order: Order,
  imageBase: string,
  now: number,
  holdExtensionMinutes: number,
): PublicOrderView {
  const address = order.shippingAddress;
  return {
    orderNumber: order.orderNumber,
    status: order.status,
    progress: progressPercent(order.status),
    region: order.region,
    email: order.email ? maskEmail(order.email) : null,
    customerName: order.customerName,
    address: address ? maskAddress(address.street) : "",
    city: address?.city ?? "",
    state: address?.state ?? "",
    zipCode: address?.zipCode ?? "",
    country: address?.country ?? "",
    items: order.items.map((i) => ({
      name: i.name,
      price: toDollars(i.priceCents),
      priceCents: i.priceCents,
      quantity: i.quantity,
      imageUrl: orderItemImageUrl(i, imageBase),
      size: i.size,
      keycaps: i.keycaps,
      bodyColor: i.bodyColor,
      switches: i.switches.map((s) => ({ ...s, imageUrl: switchImageUrl(imageBase, s.image) })),
    })),
    subtotal: toDollars(order.subtotalCents),
    discount: toDollars(order.discountCents),
    shipping: toDollars(order.shippingCents),
    tax: toDollars(order.taxCents),
    total: toDollars(order.totalCents),
    subtotalCents: order.subtotalCents,
    discountCents: order.discountCents,
    shippingCents: order.shippingCents,
    taxCents: order.taxCents,
    totalCents: order.totalCents,
    promoCode: order.promoCode,
    trackingNumber: order.trackingNumber,
    trackingUrl: order.trackingNumber ? carrierTrackingUrl(order.trackingNumber) : null,
    trackingText: trackingText(order.status, order.trackingNumber),
    paymentError: order.paymentError,
    cancelReason: order.cancelReason,
    createdAt: new Date(order.createdAt).toISOString(),
    awaitingPayment: isHolding(order, now),
    holdSecondsLeft: isHolding(order, now)
      ? Math.floor((order.reservation.expiresAt - now) / 1000)
      : null,
    holdExtendMinutes: isHolding(order, now) && order.reservation.extendedAt === undefined
      ? extensionMinutes(order, holdExtensionMinutes)
      : null,
    // The shopper sees money owed until it is on its way back (whatever the provider's steps).
    refund: !order.refund ? null : order.refund.state === "refunded" ? "refunded" : "pending",
  };
}

/** An order as the admin dashboard sees it: everything, with image URLs. */
export function adminOrderView(order: Order, imageBase: string): AdminOrderView {
  return {
    orderNumber: order.orderNumber,
    status: order.status,
    region: order.region,
    email: order.email,
    customerName: order.customerName,
    shippingAddress: order.shippingAddress,
    items: order.items.map((i) => ({
      ...i,
      price: toDollars(i.priceCents),
      imageUrl: orderItemImageUrl(i, imageBase),
      switches: i.switches.map((s) => ({ ...s, imageUrl: switchImageUrl(imageBase, s.image) })),
    })),
    trackingNumber: order.trackingNumber,
    taxId: order.taxId,
    promoCode: order.promoCode,
    subtotal: toDollars(order.subtotalCents),
    discount: toDollars(order.discountCents),
    shipping: toDollars(order.shippingCents),
    tax: toDollars(order.taxCents),
    total: toDollars(order.totalCents),
    cancelReason: order.cancelReason,
    refund: order.refund?.state ?? null,
    createdAt: new Date(order.createdAt).toISOString(),
    updatedAt: new Date(order.updatedAt).toISOString(),
  };
}
