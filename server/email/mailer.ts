import type { Logger } from "../log.ts";

/** One email. */
export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
}

/**
 * A send the mail server refused for this email alone (an address it will never deliver to): the
 * server works, and trying again changes nothing.
 */
export class PermanentMailError extends Error {
  override name = "PermanentMailError";
}

/**
 * Sends email; the outbox calls it and retries on failure. Throws PermanentMailError for an email
 * the server will never accept, anything else for a server that fails.
 */
export interface Mailer {
  send(email: Email): Promise<void>;
}

/** Keeps sent emails in memory, for tests. */
export function memoryMailer(): Mailer & { sent: Email[]; failNext: number } {
  const mailer = {
    sent: [] as Email[],
    failNext: 0,
    send(email: Email) {
      if (mailer.failNext > 0) {
        mailer.failNext--;
        return Promise.reject(new Error("Simulated mail server failure"));
      }
      mailer.sent.push(email);
      return Promise.resolve();
    },
  };
  return mailer;
}

/** Without SMTP settings emails are logged (and stay in the KV outbox) instead of sent. */
export function logMailer(logger: Logger): Mailer {
  return {
    send(email) {
      logger({ msg: "email (not sent: no SMTP_URL set)", to: email.to, subject: email.subject });
      return Promise.resolve();
    },
  };
}
