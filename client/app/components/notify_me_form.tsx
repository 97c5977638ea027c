import { type StockAlertInput, stockAlertSchema } from "../../../shared/schemas.ts";
import type { StockAlertAnswer } from "../../../shared/api_types.ts";
import { api } from "../api.ts";
import { fieldErrors } from "../field_errors.ts";
import { EmailSignUpForm } from "./email_sign_up_form.tsx";

/** What the shopper waits for. */
export type NotifyTarget = { switchId: number } | { productId: number };

/**
 * The "Email me when it's back" form: checked with the server's schema, then one email when it
 * returns.
 */
export function NotifyMeForm({ target, name }: {
  target: NotifyTarget;
  /** What it is, for the form's name ("Lavender Dream"). */
  name: string;
}) {
  const key = "switchId" in target ? `switch-${target.switchId}` : `product-${target.productId}`;
  return (
    <EmailSignUpForm
      signUp={{
        inputId: `notify-${key}-email`,
        label: `Email me when ${name} is back`,
        check(email) {
          const checked = stockAlertSchema.safeParse({ email, ...target });
          return checked.success ? { ok: true, email: checked.data.email } : {
            ok: false,
            error: fieldErrors(checked.error).email ?? checked.error.issues[0].message,
          };
        },
        send: (email) =>
          api<StockAlertAnswer>("/api/stock-alerts", {
            method: "POST",
            body: { email, ...target } satisfies StockAlertInput,
          }),
        doneText: (email, checkInbox) =>
          checkInbox
            ? `Check your inbox: we email this address a link to confirm, and its newest link confirms everything it asked for. Once it is confirmed, we will email ${email} once when ${name} is back.`
            : `We will email ${email} once when ${name} is back.`,
        promise: "One email when it is back in stock; nothing else.",
      }}
    />
  );
}
