import { stockAlertSchema } from "../../../shared/schemas.ts";
import { EmailSignUpForm } from "../components/email_sign_up_form.tsx";
import { notifyDropOpening } from "./drop_api.ts";

/** The address checked as every sign-up for a shopper's mail is (back-in-stock's own rule). */
const emailSchema = stockAlertSchema.shape.email;

/**
 * "Email me when it opens": one email at the opening. As with back-in-stock mail, an address other
 * than a signed-in shopper's own is written to only once it confirms from the link the shop sends.
 */
export function DropNotifyForm({ dropId, name }: { dropId: string; name: string }) {
  return (
    <EmailSignUpForm
      signUp={{
        inputId: `drop-notify-${dropId}-email`,
        label: `Email me when ${name} opens`,
        check(email) {
          const checked = emailSchema.safeParse(email.trim());
          return checked.success
            ? { ok: true, email: checked.data }
            : { ok: false, error: checked.error.issues[0].message };
        },
        send: (email) => notifyDropOpening(dropId, email),
        doneText: (email, checkInbox) =>
          checkInbox
            ? `Check your inbox: we email this address a link to confirm. Once it is confirmed, we will email ${email} once when ${name} opens.`
            : `We will email ${email} once when ${name} opens.`,
        promise: "One email when the drop opens; nothing else.",
      }}
    />
  );
}
