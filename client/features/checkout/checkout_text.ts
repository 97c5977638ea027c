/**
 * Small pieces the checkout pages share: API answer shapes, the stock message and the names of
 * configured options. Kept inside this feature because features do not import each other.
 */
import type { PublicOrderView } from "../../../shared/order_view.ts";
import { ApiError } from "../../app/api.ts";
import type { Address } from "../../../shared/api_types.ts";

/** GET /api/payments/config. */
export interface PaymentsConfig {
  provider: "demo" | "stripe";
  publishableKey: string | null;
  reservationMinutes: number;
}

/** POST /api/orders/create. */
export interface OrderCreated {
  stripeClientSecret: string;
  orderNumber: string;
  paymentIntentId: string;
  totals: PublicOrderView;
}

/** POST /api/promo/validate. */
export interface PromoResult {
  code: string;
  percentOff: number;
  discountCents: number;
}

/** The demo provider's pay and confirm answers. */
export interface DemoPaid {
  ok: boolean;
  orderNumber: string;
  redirectUrl: string;
}

/** A postal address (shared/api_types.ts). */
export type PayAddress = Address;

/** The test cards of the demo provider, shown beside its card field. */
export const DEMO_TEST_CARD = "4242 4242 4242 4242";
export const DEMO_DECLINED_CARD = "4000 0000 0000 0002";

/** 'Insufficient stock for: Gateron Yellow (2 available), ...' (SPEC.md section 8). */
export function insufficientStockMessage(short: Record<string, number>): string {
  const parts = Object.entries(short).map(([name, n]) => `${name} (${n} available)`);
  return `Insufficient stock for: ${parts.join(", ")}`;
}

/** The stock shortage carried by a 409 answer, if that is what the error is. */
export function shortStockOf(err: unknown): Record<string, number> | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  const body = err.body as { insufficientStock?: Record<string, number> } | null;
  return body?.insufficientStock ?? null;
}

/** The server's own words for a refused request (4xx), else the fallback. */
export function clientErrorMessage(err: unknown, fallback: string): string {
  return err instanceof ApiError && err.status >= 400 && err.status < 500 ? err.message : fallback;
}

/** Readable keycap options of testers, packs and cubes. */
export const KEYCAP_NAMES: Readonly<Record<string, string>> = {
  none: "No keycaps",
  transparent: "Transparent keycaps",
  random: "Random keycaps",
  white: "White keycaps",
  pastel: "Pastel Mix keycaps",
};

/** One line describing a configured item ('10 switches · Transparent keycaps · White body'). */
export function configurationText(
  item: { size: number | null; keycaps: string | null; bodyColor: string | null },
): string | null {
  if (item.size === null) {
    return item.keycaps === "transparent" ? "With transparent keycaps" : null;
  }
  const parts = [`${item.size} switches`, KEYCAP_NAMES[item.keycaps ?? "none"] ?? item.keycaps];
  if (item.bodyColor) parts.push(item.bodyColor === "black" ? "Black body" : "White body");
  return parts.join(" · ");
}

/** Countries offered on the international checkout, by ISO 3166-1 alpha-2 code. */
export const COUNTRIES: readonly { code: string; name: string }[] = [
  { code: "AR", name: "Argentina" },
  { code: "AU", name: "Australia" },
  { code: "AT", name: "Austria" },
  { code: "BE", name: "Belgium" },
  { code: "BR", name: "Brazil" },
  { code: "CA", name: "Canada" },
  { code: "CL", name: "Chile" },
  { code: "CN", name: "China" },
  { code: "CO", name: "Colombia" },
  { code: "CZ", name: "Czechia" },
  { code: "DK", name: "Denmark" },
  { code: "EE", name: "Estonia" },
  { code: "FI", name: "Finland" },
  { code: "FR", name: "France" },
  { code: "DE", name: "Germany" },
  { code: "GR", name: "Greece" },
  { code: "HK", name: "Hong Kong" },
  { code: "HU", name: "Hungary" },
  { code: "IN", name: "India" },
  { code: "ID", name: "Indonesia" },
  { code: "IE", name: "Ireland" },
  { code: "IL", name: "Israel" },
  { code: "IT", name: "Italy" },
  { code: "JP", name: "Japan" },
  { code: "LV", name: "Latvia" },
  { code: "LT", name: "Lithuania" },
  { code: "LU", name: "Luxembourg" },
  { code: "MY", name: "Malaysia" },
  { code: "MX", name: "Mexico" },
  { code: "NL", name: "Netherlands" },
  { code: "NZ", name: "New Zealand" },
  { code: "NO", name: "Norway" },
  { code: "PH", name: "Philippines" },
  { code: "PL", name: "Poland" },
  { code: "PT", name: "Portugal" },
  { code: "RO", name: "Romania" },
  { code: "SG", name: "Singapore" },
  { code: "SK", name: "Slovakia" },
  { code: "SI", name: "Slovenia" },
  { code: "ZA", name: "South Africa" },
  { code: "KR", name: "South Korea" },
  { code: "ES", name: "Spain" },
  { code: "SE", name: "Sweden" },
  { code: "CH", name: "Switzerland" },
  { code: "TW", name: "Taiwan" },
  { code: "TH", name: "Thailand" },
  { code: "TR", name: "Türkiye" },
  { code: "AE", name: "United Arab Emirates" },
  { code: "GB", name: "United Kingdom" },
  { code: "VN", name: "Vietnam" },
];

/** A problem with what the shopper typed, found before anything is sent; shown like a decline. */
export class PayInputError extends Error {}
