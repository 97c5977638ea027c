/**
 * The demo provider's pay calls as the shop sees them: the provider takes the payment (recording
 * its event in the same write), then the shop handles the event at once, as it would a webhook.
 * A declined card leaves a note on the order; its hold stands, so another card can be tried.
 */
import type { AppDeps } from "../deps.ts";
import { PaymentDeclined } from "../errors.ts";
import { handlePaymentEvent, notePaymentFailure } from "../orders/payment.ts";
import type { Order } from "../orders/order.ts";
import { step } from "../orders/steps.ts";
import { findOrder, findOrderEntry } from "../db/orders.ts";
import { chargeDemoPayment, type DemoPayInput, type DemoPayment, getDemoPayment } from "./demo.ts";

/** Pays a demo session or intent; answers the order as it ends. */
export async function payDemo(
  deps: AppDeps,
  id: string,
  kind: DemoPayment["kind"],
  body: DemoPayInput,
): Promise<Order> {
  let event;
  // The order is read while the charge commits: its number is known once the payment is read.
  let orderRead: Promise<Deno.KvEntry<Order> | null> | undefined;
  const readOrder = (orderNumber: string) => {
    orderRead ??= findOrderEntry(deps.kv, orderNumber);
    orderRead.catch(() => {});
  };
  try {
    event = await step(
      deps,
      "charge",
      () => chargeDemoPayment(deps.kv, deps.clock, id, kind, body, readOrder),
    );
  } catch (err) {
    const payment = err instanceof PaymentDeclined ? await getDemoPayment(deps.kv, id) : null;
    if (payment) await notePaymentFailure(deps, payment.orderNumber, (err as Error).message);
    throw err;
  }
  const order = await handlePaymentEvent(deps, event, orderRead);
  return order ?? (await findOrder(deps.kv, event.orderNumber))!;
}
