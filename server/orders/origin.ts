import type { Order } from "./order.ts";
import type { OrderDeps } from "./steps.ts";

/** The shop's address for links in an order's emails. */
export function originFor(deps: Pick<OrderDeps, "config">, order: Order): string {
  return deps.config.publicUrl ?? order.origin ?? "";
}
