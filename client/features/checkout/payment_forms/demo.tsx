import { api } from "../../../app/api.ts";
import type { DemoPayAnswer } from "../../../../shared/api_types.ts";
import type { DemoPayInput } from "../../../../shared/schemas.ts";
import { DemoCardForm } from "../demo_card_form.tsx";
import type { PaymentFormProps } from "../payment_form_props.ts";

/**
 * The demo provider's form on /checkout: the card field and 'Pay now', confirming the payment
 * with the details the shopper entered, then on to where the provider sends paid shoppers.
 */
export default function DemoPaymentForm({ payment, request, disabled, note }: PaymentFormProps) {
  async function pay(cardNumber: string): Promise<void> {
    if (!payment || !request) return;
    const paid = await api<DemoPayAnswer>(
      `/api/demo/payment-intents/${encodeURIComponent(payment.id)}/confirm`,
      {
        method: "POST",
        body: {
          cardNumber,
          email: request.email,
          name: request.customerName,
          // The /checkout page ships to the United States only.
          address: { ...request.shippingAddress, country: "US" },
        } satisfies DemoPayInput,
      },
    );
    location.assign(paid.redirectUrl);
  }
  return <DemoCardForm disabled={disabled} note={note} onPay={pay} />;
}
