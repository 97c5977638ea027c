/**
 * When a back-in-stock sign-up sends a confirmation email. Anyone can type any address, so the
 * shop mails an address only once it confirmed, and the confirmations themselves are bounded:
 * one per address while one is fresh, and a few a day per mailbox however it is spelled.
 */

/** How long a confirmation link works; sign-ups never confirmed are dropped after it. */
export const CONFIRM_LINK_MS = 7 * 24 * 60 * 60_000;

/** An address asking again this soon after its confirmation was sent is not sent another. */
export const RESEND_AFTER_MS = 60 * 60_000;

/** Confirmations one mailbox (case, +tags and Gmail's dots aside) gets in any 24 hours. */
export const CONFIRMATIONS_PER_MAILBOX = 3;
export const MAILBOX_WINDOW_MS = 24 * 60 * 60_000;

/** An address that asked for back-in-stock emails. */
export interface AlertAddress {
  /** When it confirmed (null: not yet): its sign-ups are emailed only once it has. */
  confirmedAt: number | null;
  /** When a confirmation was last sent to it. */
  lastSentAt: number | null;
}

/** The confirmations a mailbox was sent (their times) that still count at `now`. */
export function recentSends(sentAt: readonly number[], now: number): number[] {
  return sentAt.filter((at) => at > now - MAILBOX_WINDOW_MS && at <= now);
}

/**
 * Whether a sign-up for `address` sends a confirmation now: not when the address has confirmed,
 * nor while the one it was sent is fresh, nor when its mailbox had its confirmations for the day.
 */
export function sendsConfirmation(
  address: AlertAddress | null,
  mailboxSends: readonly number[],
  now: number,
): boolean {
  if (address?.confirmedAt != null) return false;
  if (address?.lastSentAt != null && now - address.lastSentAt < RESEND_AFTER_MS) return false;
  return recentSends(mailboxSends, now).length < CONFIRMATIONS_PER_MAILBOX;
}
