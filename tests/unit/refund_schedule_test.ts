import assert from "node:assert/strict";
import { refundRetryDelay } from "../../server/orders/refunds.ts";

Deno.test("a refused refund is tried again 1, 5, 15 and 60 minutes later, then every 3 and 6 hours", () => {
  const minutes = [1, 2, 3, 4, 5, 6, 7, 20].map((n) => refundRetryDelay(n) / 60_000);
  assert.deepEqual(minutes, [1, 5, 15, 60, 180, 360, 360, 360]);
});
