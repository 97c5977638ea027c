import { BANNER_PROMO_CODE, BANNER_PROMO_PERCENT } from "../../shared/policy.ts";
import { InvalidInput } from "../errors.ts";
import { setMissing } from "./kv_util.ts";
import { keys } from "./keys.ts";

/** A promo code as stored. */
export interface PromoRecord {
  code: string;
  percentOff: number;
  active: boolean;
}

/** Writes the banner's code where absent. */
export async function seedPromoCodes(kv: Deno.Kv): Promise<number> {
  const code: PromoRecord = {
    code: BANNER_PROMO_CODE,
    percentOff: BANNER_PROMO_PERCENT,
    active: true,
  };
  return await setMissing(kv, [[keys.promo(code.code), code]]);
}

/** Normalises what a shopper typed: codes are case-insensitive and ignore spaces. */
export function normalizePromoCode(input: string): string {
  return input.replace(/\s+/g, "").toUpperCase();
}

/** The active promo code for this input; throws InvalidInput naming what was typed. */
export async function getPromo(kv: Deno.Kv, input: string): Promise<PromoRecord> {
  const code = normalizePromoCode(input);
  const promo = code && code.length <= 40
    ? (await kv.get<PromoRecord>(keys.promo(code))).value
    : null;
  if (!promo?.active) throw new InvalidInput(`The promo code ${input.trim()} is not valid`);
  return promo;
}
