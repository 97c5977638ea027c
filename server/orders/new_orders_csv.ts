/** The CSV of new orders the owner downloads for a range of days. */
import { isNewForAdmin } from "../../shared/status.ts";
import { toCsv } from "../csv.ts";
import type { Clock } from "../clock.ts";
import type { Actor } from "../audit/actor.ts";
import { auditEntry } from "../audit/log.ts";
import { recordAlone, rowsText } from "../audit/export.ts";
import { listAllOrders } from "./list.ts";
import type { Order } from "./order.ts";

/** One CSV row per new order. */
function csvRows(orders: Order[]): unknown[][] {
  const header = [
    "Order Number",
    "Status",
    "Created",
    "Customer",
    "Email",
    "Street",
    "Apartment",
    "City",
    "State",
    "ZIP",
    "Country",
    "Items",
    "Subtotal",
    "Discount",
    "Shipping",
    "Tax",
    "Total",
    "Tracking Number",
    "Tax ID",
  ];
  return [
    header,
    ...orders.map((o) => [
      o.orderNumber,
      o.status,
      new Date(o.createdAt).toISOString(),
      o.customerName,
      o.email,
      o.shippingAddress?.street,
      o.shippingAddress?.apartment,
      o.shippingAddress?.city,
      o.shippingAddress?.state,
      o.shippingAddress?.zipCode,
      o.shippingAddress?.country,
      o.items.map((i) =>
        `${i.quantity} x ${i.name}${
          i.switches.length ? ` [${i.switches.map((s) => `${s.brand}: ${s.name}`).join("; ")}]` : ""
        }${i.keycaps && i.keycaps !== "none" ? ` (keycaps: ${i.keycaps})` : ""}${
          i.bodyColor ? ` (body: ${i.bodyColor})` : ""
        }`
      ).join(" | "),
      (o.subtotalCents / 100).toFixed(2),
      (o.discountCents / 100).toFixed(2),
      (o.shippingCents / 100).toFixed(2),
      (o.taxCents / 100).toFixed(2),
      (o.totalCents / 100).toFixed(2),
      o.trackingNumber,
      o.taxId?.value,
    ]),
  ];
}

/** The CSV of new orders (paid, not shipped), oldest first, of the days asked for. */
export async function newOrdersCsv(
  kv: Deno.Kv,
  days: { from?: string; to?: string },
  /** Who downloads it: an export of customers' addresses, recorded before it is handed over. */
  by?: { clock: Clock; actor: Actor },
): Promise<{ filename: string; body: string }> {
  const { from, to } = days;
  const fresh = (await listAllOrders(kv, { status: isNewForAdmin, from, to })).reverse();
  const range = from || to ? `_${from ?? "start"}_to_${to ?? "today"}` : "";
  if (by) {
    await recordAlone(
      kv,
      auditEntry(by.clock, by.actor, {
        kind: "export",
        action: "export.orders_csv",
        target: `new_orders${range}.csv`,
        detail: rowsText(fresh.length),
      }),
    );
  }
  // The byte order mark tells spreadsheet programs the file is UTF-8 (names with accents).
  return { filename: `new_orders${range}.csv`, body: `\uFEFF${toCsv(csvRows(fresh))}` };
}
