import type { OrderCreateRequest } from "./use_payment_creation.ts";

/**
 * What the /checkout page gives the payment form of the shop's provider. Each provider's form is
 * `payment_forms/{provider}.tsx` (its name in the server's payment registry), default-exported
 * and loaded on use: the page itself names no provider.
 */
export interface PaymentFormProps {
  /** The provider's key for its browser code, when its form needs one. */
  publishableKey: string | null;
  /** The payment to confirm, once the order is created; null until then. */
  payment: { id: string; clientSecret: string } | null;
  /** The details the shopper entered, as the order was created with them. */
  request: OrderCreateRequest | null;
  /** Paying is not possible now (terms, details, the payment or the hold are missing). */
  disabled: boolean;
  /** Why paying is disabled, or what happens next. */
  note: string | null;
}
