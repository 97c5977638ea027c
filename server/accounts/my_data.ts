/**
 * A shopper's own data (the privacy policy's promise): everything stored about them as JSON, and
 * deleting the account. Orders are kept for the shop's accounting, without who placed them.
 */
import type { AppDeps } from "../deps.ts";
import { Conflict, Unauthorized } from "../errors.ts";
import { isNewForAdmin } from "../../shared/status.ts";
import { keys } from "../kv/keys.ts";
import { updateOrder } from "../orders/store.ts";
import { listOrdersOfUser } from "../orders/by_user.ts";
import { forgetEmails } from "../email/outbox.ts";
import { forgetAlertAddress } from "../stock/back_in_stock/store.ts";
import { forgetDevices } from "./known_devices.ts";
import { checkCredentials, type User } from "./users.ts";
import type { Order } from "../orders/order.ts";
import type { MyDataExport } from "../../shared/api_types.ts";

/** What an order keeps once its customer deleted their account. */
export const DELETED_CUSTOMER = "Deleted customer";

function exportedOrder(o: Order): MyDataExport["orders"][number] {
  return {
    orderNumber: o.orderNumber,
    status: o.status,
    createdAt: new Date(o.createdAt).toISOString(),
    email: o.email,
    customerName: o.customerName,
    shippingAddress: o.shippingAddress,
    taxId: o.taxId,
    items: o.items.map((i) => ({
      name: i.name,
      quantity: i.quantity,
      priceCents: i.priceCents,
      size: i.size,
      keycaps: i.keycaps,
      bodyColor: i.bodyColor,
      switches: i.switches.map((s) => `${s.brand} ${s.name}`),
    })),
    promoCode: o.promoCode,
    totalCents: o.totalCents,
    trackingNumber: o.trackingNumber,
  };
}

/** Everything the shop keeps about the account (never its password hash or salt). */
export async function exportMyData(
  deps: Pick<AppDeps, "kv" | "clock">,
  user: User,
): Promise<MyDataExport> {
  const orders = await listOrdersOfUser(deps.kv, user.userId);
  const addresses = [
    ...new Map(
      orders.flatMap((
        o,
      ) => (o.shippingAddress ? [[JSON.stringify(o.shippingAddress), o.shippingAddress]] : [])),
    ).values(),
  ];
  return {
    exportedAt: new Date(deps.clock.now()).toISOString(),
    account: {
      userId: user.userId,
      email: user.email,
      createdAt: new Date(user.createdAt).toISOString(),
    },
    addresses,
    orders: orders.map(exportedOrder),
  };
}

/** An order without who placed it: no name, email or street; the country and state stay for tax. */
function anonymised(order: Order, now: number): Order {
  const a = order.shippingAddress;
  return {
    ...order,
    userId: null,
    email: null,
    customerName: DELETED_CUSTOMER,
    shippingAddress: a
      ? { street: "", apartment: "", city: "", state: a.state, zipCode: "", country: a.country }
      : null,
    updatedAt: now,
  };
}

/**
 * Why the account cannot be deleted now, or null: an order paid and not yet shipped needs its
 * name and address to be sent (erased, the shop could neither ship it nor owe a refund), and a
 * checkout waiting for payment may still be paid. Both end on their own: shipped, cancelled,
 * paid or lapsed.
 */
export function deletionRefusal(
  orders: readonly Pick<Order, "orderNumber" | "status">[],
): string | null {
  const unshipped = orders.find((o) => isNewForAdmin(o.status));
  if (unshipped) {
    return `Your order ${unshipped.orderNumber} has not shipped yet, and we need its name and address to send it, so the account was not deleted. Cancel the order from its page, or delete your account once it has shipped.`;
  }
  const waiting = orders.find((o) => o.status === "STARTED");
  if (waiting) {
    return `Your checkout ${waiting.orderNumber} is still waiting for payment, so the account was not deleted. Pay for it or let it lapse, then delete your account.`;
  }
  return null;
}

/**
 * Deletes the account after checking its password: its orders are anonymised, the emails sent to
 * it (and to the addresses its orders gave) leave the outbox and the owner's notes of its orders
 * lose their text, then the account, its email index and cart link go and every session stops
 * working (they resolve to no account). The account goes last, so a deletion cut short leaves an
 * account its owner can delete again, never personal data nobody can reach.
 */
export async function deleteMyAccount(
  deps: Pick<AppDeps, "kv" | "clock" | "passwordIterations">,
  user: User,
  password: string,
): Promise<void> {
  const { kv, clock } = deps;
  if (!(await checkCredentials(kv, user.email, password, deps.passwordIterations))) {
    throw new Unauthorized("That password is not right, so the account was not deleted");
  }
  const orders = await listOrdersOfUser(kv, user.userId);
  const refusal = deletionRefusal(orders);
  if (refusal) throw new Conflict(refusal);
  for (const order of orders) {
    await updateOrder(kv, order.orderNumber, (current, op) => {
      op.delete(keys.ordersByUser(user.userId, order.orderNumber));
      return anonymised(current, clock.now());
    });
  }
  await forgetEmails(kv, {
    to: [user.email, ...orders.flatMap((o) => o.email ? [o.email] : [])],
    mentioning: orders.map((o) => o.orderNumber),
  });
  await forgetAlertAddress(kv, user.email);
  await forgetDevices(kv, user.email.toLowerCase());
  await kv.atomic()
    .delete(keys.user(user.userId))
    .delete(keys.userByEmail(user.email))
    .delete(keys.userCart(user.userId))
    .commit();
}
