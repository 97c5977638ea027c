/**
 * An order's size: its payment's write checks its parts with its own entries, its promo's use and
 * its drop's, so an order with a promo code or a drop's item may hold fewer distinct parts.
 */
import assert from "node:assert/strict";
import {
  checkPayableSize,
  KV_MAX_CHECKS,
  MAX_ORDER_COMPONENTS,
  PAID_WRITE_CHECKS,
} from "../../server/orders/order.ts";
import { DROP_WRITE_CHECKS } from "../../server/drops/purchase_rules.ts";
import { InvalidInput } from "../../server/errors.ts";

Deno.test("an order holds no more parts than its payment's write can check", () => {
  assert.equal(DROP_WRITE_CHECKS, 7, "the drop, its ledger, the place and four person keys");
  // Without a promo or a drop, the order's own limit decides (and fits the paid write).
  checkPayableSize(MAX_ORDER_COMPONENTS, 0);
  assert.ok(MAX_ORDER_COMPONENTS + PAID_WRITE_CHECKS <= KV_MAX_CHECKS);
  // A drop's item: 100 - 9 - 7 = 84 parts at most.
  checkPayableSize(84, DROP_WRITE_CHECKS);
  assert.throws(
    () => checkPayableSize(85, DROP_WRITE_CHECKS),
    (err: unknown) =>
      err instanceof InvalidInput &&
      /85 different switches and parts; with its promo code or drop, one order can hold at most 84/
        .test(err.message),
  );
  checkPayableSize(1, DROP_WRITE_CHECKS + 5);
});
