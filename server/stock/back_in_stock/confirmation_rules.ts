/**
 * When a back-in-stock sign-up is in force and when it sends a confirmation email. Anyone can type
 * any address, so a sign-up is mailed only once its address confirmed after it was made (or it is
 * a signed-in shopper's own), and the confirmations themselves are bounded: one live link per
 * address, one an hour at most, and a few a day per mailbox however it is spelled.
 */

/** How long a confirmation link works; sign-ups never confirmed are dropped after it. */
export const CONFIRM_LINK_MS = 7 * 24 * 60 * 60_000;

/**
 * A live link with less than this left is not relied on: asking again sends a new one (within
 * the caps), so a shopper who asks on the link's last day does not get a link that dies tonight.
 */
export const REUSE_LINK_FOR_MS = 24 * 60 * 60_000;

/** An address asking again this soon after its confirmation was sent is not sent another. */
export const RESEND_AFTER_MS = 60 * 60_000;

/** Confirmations one mailbox (case, +tags and Gmail's dots aside) gets in any 24 hours. */
export const CONFIRMATIONS_PER_MAILBOX = 3;
export const MAILBOX_WINDOW_MS = 24 * 60 * 60_000;

/**
 * An address that was asked for back-in-stock emails. Its sign-ups wait in rounds: a pending
 * sign-up joins the address's current round, and a confirmation closes that round (every sign-up
 * waiting at that moment is in force) and opens the next, which only the next confirmation
 * closes. So confirming once never lets a stranger add sign-ups later.
 */
export interface AlertAddress {
  /** The round a pending sign-up made now joins. */
  round: number;
  /** The last round a confirmation closed (absent: none while this record lived). */
  confirmedRound?: number;
  /** The confirmation link sent and not used yet (it may have expired). */
  link: { token: string; expiresAt: number } | null;
  /** When a confirmation was last sent to it. */
  lastSentAt: number | null;
}

/** The round a pending sign-up made now joins. */
export function currentRound(address: AlertAddress | null): number {
  return address?.round ?? 0;
}

/** The address once a confirmation closed its current round (its link spent). */
export function confirmedAddress(address: AlertAddress | null): AlertAddress {
  const round = currentRound(address);
  return {
    round: round + 1,
    confirmedRound: round,
    link: null,
    lastSentAt: address?.lastSentAt ?? null,
  };
}

/**
 * Whether a sign-up may be emailed: in force (`pending` absent), or pending in a round that a
 * confirmation of its address closed since.
 */
export function inForce(pending: number | undefined, address: AlertAddress | null): boolean {
  if (pending === undefined) return true;
  return address?.confirmedRound !== undefined && pending <= address.confirmedRound;
}

/** Whether the address has a link that still works. */
export function hasLiveLink(address: AlertAddress | null, now: number): boolean {
  return address?.link != null && address.link.expiresAt > now;
}

/**
 * Whether a pending sign-up made at `createdAt` is kept no longer: unconfirmed, a link's life old,
 * and no live link left that could still confirm it (one sent when it was asked for again).
 */
export function unconfirmedTooLong(
  createdAt: number,
  pending: number | undefined,
  address: AlertAddress | null,
  now: number,
): boolean {
  return !inForce(pending, address) && createdAt + CONFIRM_LINK_MS <= now &&
    !hasLiveLink(address, now);
}

/** The confirmations a mailbox was sent (their times) that still count at `now`. */
export function recentSends(sentAt: readonly number[], now: number): number[] {
  return sentAt.filter((at) => at > now - MAILBOX_WINDOW_MS && at <= now);
}

/**
 * Whether a sign-up waiting for `address` to confirm sends a confirmation now: not while the
 * address has a live link with a day or more left (that link confirms this sign-up too), nor
 * within an hour of the last one, nor when its mailbox had its confirmations for the day.
 */
export function sendsConfirmation(
  address: AlertAddress | null,
  mailboxSends: readonly number[],
  now: number,
): boolean {
  if (address?.link && address.link.expiresAt - now >= REUSE_LINK_FOR_MS) return false;
  if (address?.lastSentAt != null && now - address.lastSentAt < RESEND_AFTER_MS) return false;
  return recentSends(mailboxSends, now).length < CONFIRMATIONS_PER_MAILBOX;
}
