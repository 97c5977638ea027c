// @deno-types="@types/nodemailer"
import nodemailer from "nodemailer";
import { type Mailer, PermanentMailError } from "./mailer.ts";

/**
 * Whether the server refused the recipient for good (a 5xx answer to the envelope: no such
 * mailbox, a domain it will not deliver to), as opposed to failing (a timeout, a 4xx, a refused
 * connection), which the outbox retries and counts as an outage.
 */
function isRecipientRefused(err: unknown): boolean {
  const { code, responseCode } = err as { code?: string; responseCode?: number };
  return code === "EENVELOPE" && typeof responseCode === "number" && responseCode >= 500 &&
    responseCode < 600;
}

/**
 * Sends through the SMTP server of SMTP_URL (smtp:// with STARTTLS when offered, smtps:// for
 * TLS from the start; credentials in the URL). nodemailer speaks the protocol; the outbox above
 * it retries failures, so a send here is one attempt.
 */
export function smtpMailer(smtpUrl: string, from: string): Mailer & { close(): void } {
  // A send must end (sent or failed) well within the outbox's claim on the email, or another
  // delivery could take the email over and send it again (nodemailer waits minutes by default).
  const transport = nodemailer.createTransport(smtpUrl, {
    from,
    connectionTimeout: 20_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  return {
    async send(email) {
      try {
        await transport.sendMail({
          from,
          to: email.to,
          replyTo: email.replyTo,
          subject: email.subject,
          text: email.text,
          html: email.html,
        });
      } catch (err) {
        throw isRecipientRefused(err)
          ? new PermanentMailError(String((err as Error).message))
          : err;
      }
    },
    close() {
      transport.close();
    },
  };
}
