/**
 * The order workflows as a provider's own pages reach them (the demo provider's hosted page and
 * card form): lent to the provider's routes as a `ShopDesk`, so payments never import orders.
 */
import type { RouteDeps } from "../deps.ts";
import { PaymentDeclined } from "../errors.ts";
import type { ShopDesk } from "../payments/provider.ts";
import { handlePaymentEvent, notePaymentFailure } from "./payment.ts";
import type { Order } from "./order.ts";
import { step } from "./steps.ts";
import { findOrder, findOrderEntry } from "./store.ts";
import { publicOrderView } from "./views.ts";

export function shopDesk(deps: RouteDeps): ShopDesk {
  return {
    async orderView(orderNumber) {
      const order = await findOrder(deps.kv, orderNumber);
      return order
        ? publicOrderView(order, deps.imageBase, deps.clock.now(), deps.config.holdExtensionMinutes)
        : null;
    },

    async takePayment(charge, declinedOrder) {
      let event;
      // The order is read while the charge commits: its number is known once the payment is read.
      let orderRead: Promise<Deno.KvEntry<Order> | null> | undefined;
      const readOrder = (orderNumber: string) => {
        orderRead ??= findOrderEntry(deps.kv, orderNumber);
        orderRead.catch(() => {});
      };
      try {
        event = await step(deps, "charge", () => charge(readOrder), (e) => e.orderNumber);
      } catch (err) {
        const orderNumber = err instanceof PaymentDeclined ? await declinedOrder() : null;
        if (orderNumber) await notePaymentFailure(deps, orderNumber, (err as Error).message);
        throw err;
      }
      const order = await handlePaymentEvent(deps, event, orderRead) ??
        (await findOrder(deps.kv, event.orderNumber))!;
      return { orderNumber: order.orderNumber, status: order.status };
    },
  };
}
