// @deno-types="@types/nodemailer"
import nodemailer from "nodemailer";
import type { Mailer } from "./mailer.ts";

/**
 * Sends through the SMTP server of SMTP_URL (smtp:// with STARTTLS when offered, smtps:// for
 * TLS from the start; credentials in the URL). nodemailer speaks the protocol; the outbox above
 * it retries failures, so a send here is one attempt.
 */
export function smtpMailer(smtpUrl: string, from: string): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(smtpUrl, { from });
  return {
    async send(email) {
      await transport.sendMail({
        from,
        to: email.to,
        replyTo: email.replyTo,
        subject: email.subject,
        text: email.text,
        html: email.html,
      });
    },
    close() {
      transport.close();
    },
  };
}
