/**
 * When an account may be deleted (server/accounts/my_data.ts): not while an order it paid is
 * still to ship, nor while one of its checkouts waits for payment.
 */
import assert from "node:assert/strict";
import { deletionRefusal } from "../../server/accounts/my_data.ts";
import type { OrderStatus } from "../../shared/status.ts";

const order = (status: OrderStatus, orderNumber = "ST0000000000000000AA") => ({
  orderNumber,
  status,
});

Deno.test("an account with every order shipped, delivered or ended may be deleted", () => {
  assert.equal(deletionRefusal([]), null);
  assert.equal(
    deletionRefusal([
      order("SHIPPED"),
      order("DELIVERED"),
      order("CANCELLED"),
      order("EXPIRED"),
    ]),
    null,
  );
});

Deno.test("an order still to ship, or a checkout waiting for payment, keeps the account, named", () => {
  for (const status of ["PAYMENT_RECEIVED", "PROCESSING"] as const) {
    assert.match(
      deletionRefusal([order("DELIVERED"), order(status, "ST1")]) ?? "",
      /^Your order ST1 has not shipped yet/,
    );
  }
  assert.match(
    deletionRefusal([order("STARTED", "ST2")]) ?? "",
    /^Your checkout ST2 is still waiting for payment/,
  );
});
