/**
 * A shopper cancels their own paid order before it ships (the refund policy): a guest proves the
 * order is theirs with its email, a signed-in shopper with the session of the account that placed
 * it. The cancel itself is the owner's (fulfilment.ts): full refund, stock back, both emailed.
 */
import { isNewForAdmin } from "../../shared/status.ts";
import { Conflict, NotFound } from "../errors.ts";
import { findOrder, getOrder } from "./store.ts";
import { normalizeEmail } from "../promos/store.ts";
import { cancelOrder, type CancelReasons } from "./fulfilment.ts";
import type { Order } from "./order.ts";
import type { OrderDeps } from "./steps.ts";

/** Why a shopper's own cancel ended the order (only paid orders are theirs to cancel). */
export const CUSTOMER_CANCEL_REASONS: CancelReasons = {
  paid: "Cancelled by the customer; refunded in full",
  unpaid: "Cancelled by the customer before payment",
};

/** Why an order out of the window cannot be cancelled, in words for the shopper. */
function refusal(order: Order): string {
  switch (order.status) {
    case "SHIPPED":
    case "DELIVERED":
      return "This order has already shipped, so it can no longer be cancelled. Our refund policy explains what we can do: please write to us.";
    case "CANCELLED":
      return "This order is already cancelled.";
    default:
      return "This order was never paid, so there is nothing to cancel or refund.";
  }
}

/**
 * Cancels `orderNumber` for the shopper who shows it is theirs; NotFound (as for an unknown
 * number) when neither the email nor the account matches.
 */
export async function cancelByCustomer(
  deps: OrderDeps,
  orderNumber: string,
  proof: { email?: string; userId?: string },
): Promise<Order> {
  const order = await findOrder(deps.kv, orderNumber);
  const byEmail = !!proof.email && !!order?.email &&
    normalizeEmail(order.email) === normalizeEmail(proof.email);
  const byAccount = !!proof.userId && order?.userId === proof.userId;
  if (!order || !(byEmail || byAccount)) throw new NotFound("Order not found");
  if (!isNewForAdmin(order.status)) throw new Conflict(refusal(order));
  try {
    return await cancelOrder(deps, orderNumber, CUSTOMER_CANCEL_REASONS);
  } catch (err) {
    // Shipped between the look and the cancel: the same sentence as above.
    if (err instanceof Conflict) throw new Conflict(refusal(await getOrder(deps.kv, orderNumber)));
    throw err;
  }
}
