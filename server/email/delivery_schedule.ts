/**
 * When the outbox tries an email again, and when it stops. A mail server that is down for an hour
 * (a provider's incident, a full disk, a revoked password) must cost no email: tries come quickly
 * at first, then hourly, and only a day of failures gives up, after which the owner resends from
 * the Emails tab (and each process start tries the recent ones again).
 */

/** Waits after the 1st, 2nd, ... failed try; every later try waits the last of them. */
const RETRY_DELAYS_MS = [60_000, 2 * 60_000, 5 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000];

/** An email that could not be sent for this long after it was written gives up. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;

/** Mail failing for this long is told to the owner, once per outage. */
export const TELL_OWNER_AFTER_MS = 30 * 60_000;

/** Failed emails this young are tried again when a process starts. */
export const RETRY_AT_START_MS = 7 * 24 * 60 * 60_000;

/** The next try after the `attempts`-th failed one, or null once it gives up. */
export function nextAttemptAt(createdAt: number, attempts: number, now: number): number | null {
  const delay = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1];
  const next = now + delay;
  return next - createdAt > GIVE_UP_AFTER_MS ? null : next;
}

/** Whether mail failing since `since` (null: not failing) is owed to the owner now. */
export function ownerToBeTold(since: number | null, told: boolean, now: number): boolean {
  return since !== null && !told && now - since >= TELL_OWNER_AFTER_MS;
}
