/**
 * The simulated mail server: one for every instance (they share one SMTP server), which the
 * history takes down and brings back. It keeps what it accepted and every attempt, at the
 * simulated time, so the invariants can say which emails arrived and when mail was failing.
 */
import type { Email, Mailer } from "../../server/email/mailer.ts";
import type { Clock } from "../../server/clock.ts";

/** One delivery attempt as the server saw it. */
export interface MailAttempt {
  at: number;
  ok: boolean;
  subject: string;
}

/** The mail server of a history. */
export interface SimMailer extends Mailer {
  down: boolean;
  /** Emails accepted, in order. */
  readonly sent: (Email & { at: number })[];
  readonly attempts: MailAttempt[];
}

/** A mail server that is up until the history takes it down. */
export function simMailer(clock: Clock): SimMailer {
  const mailer: SimMailer = {
    down: false,
    sent: [],
    attempts: [],
    send(email) {
      const at = clock.now();
      mailer.attempts.push({ at, ok: !mailer.down, subject: email.subject });
      if (mailer.down) return Promise.reject(new Error("Connection refused (simulated outage)"));
      mailer.sent.push({ ...email, at });
      return Promise.resolve();
    },
  };
  return mailer;
}
