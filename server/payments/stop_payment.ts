import type { Order } from "../db/orders.ts";
import type { PaymentProvider } from "./provider.ts";

/**
 * Stops an unpaid order's payment at the provider so it can no longer be completed. Best effort:
 * a payment that still arrives later finds a released order and is refunded (markOrderPaid).
 */
export async function stopPayment(payments: PaymentProvider, order: Order | null): Promise<void> {
  if (order?.payment) await payments.cancel(order.payment).catch(() => {});
}
