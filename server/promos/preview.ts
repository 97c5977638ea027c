/**
 * A promo code tried at checkout before paying (`POST /api/promo/validate`): every rule a checkout
 * applies, counts included, against the cart's subtotal now; nothing is held until the checkout.
 */
import { discountCents } from "../../shared/policy.ts";
import { toDollars } from "../../shared/pricing.ts";
import type { PromoValidation } from "../../shared/api_types.ts";
import type { Clock } from "../clock.ts";
import { findCart } from "../cart/store.ts";
import { priceLines, subtotalOf } from "../cart/view.ts";
import { normalizePromoCode, readUsage } from "./store.ts";
import { discountOf, holdUse, ledgerOf, usageWant } from "./rules.ts";

interface Deps {
  kv: Deno.Kv;
  clock: Clock;
  imageBase: string;
}

/** What the code takes off the cart; throws the refusal a checkout would give, in its words. */
export async function previewPromo(
  deps: Deps,
  input: { code: string; cartId?: string | null; email?: string | null },
): Promise<PromoValidation> {
  const { kv, clock, imageBase } = deps;
  const want = usageWant(normalizePromoCode(input.code), input.email);
  const [usage, cart] = await Promise.all([
    readUsage(kv, [want]),
    input.cartId ? findCart(kv, clock, input.cartId) : null,
  ]);
  const subtotal = cart ? subtotalOf(await priceLines(kv, cart.value!.lines, imageBase)) : null;
  const promo = holdUse(ledgerOf(usage), want, null, {
    now: clock.now(),
    subtotalCents: subtotal,
    typed: input.code,
    emailLater: true,
  });
  const discount = discountCents(subtotal ?? 0, discountOf(promo));
  return {
    code: promo.code,
    percentOff: promo.percentOff,
    amountOff: promo.amountOffCents === null ? null : toDollars(promo.amountOffCents),
    amountOffCents: promo.amountOffCents,
    discount: toDollars(discount),
    discountCents: discount,
  };
}
