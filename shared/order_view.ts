import type { Region } from "./policy.ts";
import type { OrderStatus } from "./status.ts";

/** An order as its tracking page sees it: no full email or street address. */
export interface PublicOrderView {
  orderNumber: string;
  status: OrderStatus;
  progress: number;
  region: Region;
  email: string | null;
  customerName: string | null;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  items: {
    name: string;
    price: number;
    priceCents: number;
    quantity: number;
    imageUrl: string;
    size: number | null;
    keycaps: string | null;
    bodyColor: string | null;
    switches: { id: number; brand: string; name: string; image: string; imageUrl: string }[];
  }[];
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  promoCode: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  trackingText: string | null;
  paymentError: string | null;
  cancelReason: string | null;
  createdAt: string;
  /** Whether a payment can still be made (unpaid and the reservation holds). */
  awaitingPayment: boolean;
  /** Seconds left (server clock) on the stock hold of an order awaiting payment, else null. */
  holdSecondsLeft: number | null;
  /** A refund owed (pending) or paid back (refunded) for this order, else null. */
  refund: "pending" | "refunded" | null;
}
