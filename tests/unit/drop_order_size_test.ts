/**
 * An order's size: its payment's write checks its parts with its own entries, its promo's use and
 * its drop's, so an order with a promo code (or paid on a page that takes one) or a drop's item
 * may hold fewer distinct parts.
 */
import assert from "node:assert/strict";
import {
  checkPayableSize,
  KV_MAX_CHECKS,
  MAX_ORDER_COMPONENTS,
  PAID_WRITE_CHECKS,
} from "../../server/orders/order.ts";
import { DROP_WRITE_CHECKS, MOST_PERSON_KEYS } from "../../server/drops/purchase_rules.ts";
import { claimPersons, paymentPersons } from "../../server/drops/checkout_claim.ts";
import { payingPerson } from "../../server/orders/paid_write.ts";
import { InvalidInput } from "../../server/errors.ts";
import { payableExtra } from "../../server/orders/reservation.ts";
import { US_ADDRESS } from "../helpers/shop_fixtures.ts";

Deno.test("an order holds no more parts than its payment's write can check", () => {
  assert.equal(DROP_WRITE_CHECKS, 9, "the drop, its ledger, the place and six person keys");
  // Without a promo or a drop, the order's own limit decides (and fits the paid write).
  checkPayableSize(MAX_ORDER_COMPONENTS, payableExtra(false, false, false));
  assert.ok(MAX_ORDER_COMPONENTS + PAID_WRITE_CHECKS <= KV_MAX_CHECKS);
  // A drop's item on the checkout page: 100 - 9 - 9 = 82 parts at most.
  checkPayableSize(82, payableExtra(false, false, true));
  assert.throws(
    () => checkPayableSize(83, payableExtra(false, false, true)),
    (err: unknown) =>
      err instanceof InvalidInput &&
      err.message ===
        "This order has 83 different switches and parts; with a drop's item, one order can hold at most 82. Please split it into two orders.",
  );
  // A promo code typed in the cart: 100 - 9 - 5 = 86.
  checkPayableSize(86, payableExtra(true, false, false));
  assert.throws(
    () => checkPayableSize(87, payableExtra(true, false, false)),
    /with a promo code, one order can hold at most 86/,
  );
  // A hosted payment page that takes the shop's codes (the demo's) may take one the cart did not
  // have: counted as if it had one. Stripe's page takes Stripe's own codes (false here).
  checkPayableSize(86, payableExtra(false, true, false));
  assert.throws(
    () => checkPayableSize(87, payableExtra(false, true, false)),
    /with a payment page that takes promo codes, one order can hold at most 86/,
  );
  // Both: 100 - 9 - 5 - 9 = 77.
  checkPayableSize(77, payableExtra(false, true, true));
  assert.throws(
    () => checkPayableSize(78, payableExtra(true, true, true)),
    /with a promo code and a drop's item, one order can hold at most 77/,
  );
});

Deno.test("a drop order's payment counts at most MOST_PERSON_KEYS person keys, however it was bought", () => {
  const home = { ...US_ADDRESS, street: "1 Main St" };
  const elsewhere = { ...US_ADDRESS, street: "9 Harbour Rd" };
  let most = 0;
  // Signed in or not; email and address given at the checkout or not; the place joined from the
  // checkout's network, another or none known; the payment page collecting an email, the same
  // address, another or none.
  for (const userId of [null, "user-1"]) {
    for (const email of [null, "ann@example.com"]) {
      for (const address of [null, home]) {
        for (const joinedFrom of [null, "203.0.113.7", "198.51.100.9"]) {
          for (const paidEmail of [undefined, "ann.paid@example.com"]) {
            for (const paidAddress of [undefined, home, elsewhere]) {
              const counted = claimPersons(
                { userId, email, address, network: "203.0.113.7" },
                joinedFrom,
              );
              const persons = paymentPersons(
                counted,
                payingPerson(
                  { userId, email, shippingAddress: address, holdClient: "203.0.113.7" },
                  { email: paidEmail, address: paidAddress },
                ),
              );
              assert.ok(persons.length <= MOST_PERSON_KEYS, persons.join(", "));
              most = Math.max(most, persons.length);
            }
          }
        }
      }
    }
  }
  // Reached: signed in, joined elsewhere, an email, and two addresses.
  assert.equal(most, MOST_PERSON_KEYS);
});
