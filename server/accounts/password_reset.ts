/**
 * Password reset by email (docs/decisions.md#password-reset): a link valid for an hour and usable
 * once; the answer to a request never says whether the email has an account; a new password ends
 * every session of the account.
 */
import type { AppDeps } from "../deps.ts";
import { InvalidInput, LimitReached } from "../errors.ts";
import { newToken, sha256Hex } from "../crypto.ts";
import { keys } from "../kv/keys.ts";
import { hitRateLimit, type RateLimit } from "../kv/rate_limit.ts";
import { findUserByEmail, type User, withNewPassword } from "./users.ts";
import { queueEmailInto } from "../email/outbox.ts";
import { passwordResetEmail } from "./emails.ts";

/** How long a reset link works. */
export const RESET_LINK_MS = 60 * 60_000;

/** Per client: 5 requests per 10 minutes, answered 429 beyond. */
export const RESET_CLIENT_LIMIT: RateLimit = { bucket: "reset", max: 5, windowMs: 10 * 60_000 };
/**
 * Per address: 3 emails an hour. Beyond it the answer stays the same (it must not tell whether an
 * account exists) and no more email is sent, so nobody can flood an inbox through the shop.
 */
export const RESET_ACCOUNT_LIMIT: RateLimit = {
  bucket: "reset-account",
  max: 3,
  windowMs: 60 * 60_000,
};

/**
 * Why the owner's Emails tab does not resend a reset email: a copy would carry the same live link
 * (or, minted anew, let the owner send shoppers reset mail they never asked for); the shopper gets
 * a fresh link from the reset page in a minute, and the one they have keeps working meanwhile.
 */
const NO_RESEND =
  "Password reset emails are not resent: the link is the shopper's alone. They can ask for a new one on the password reset page.";

/** What a reset link's token stands for (stored under the token's hash). */
interface ResetRecord {
  userId: string;
  /** The account's session generation when asked: a later password change voids the link. */
  generation: number;
  expiresAt: number;
}

const BAD_LINK =
  "This reset link has expired or was already used. Ask for a new one on the password reset page.";

/** Emails a reset link when `email` has an account; the same quiet answer either way. */
export async function requestPasswordReset(
  deps: Pick<AppDeps, "kv" | "clock" | "config">,
  email: string,
  client: string,
  origin: string,
): Promise<void> {
  const { kv, clock } = deps;
  await hitRateLimit(
    kv,
    clock,
    RESET_CLIENT_LIMIT,
    client,
    "Too many password reset requests. Please wait a few minutes and try again.",
  );
  try {
    await hitRateLimit(kv, clock, RESET_ACCOUNT_LIMIT, email, "quiet");
  } catch (err) {
    if (err instanceof LimitReached) return;
    throw err;
  }
  const account = await findUserByEmail(kv, email);
  if (!account) return;
  const token = newToken();
  const now = clock.now();
  const record: ResetRecord = {
    userId: account.value.userId,
    generation: account.value.generation ?? 0,
    expiresAt: now + RESET_LINK_MS,
  };
  const link = `${deps.config.publicUrl ?? origin}/restore-password?token=${token}`;
  const op = kv.atomic().set(keys.passwordReset(await sha256Hex(token)), record, {
    expireIn: RESET_LINK_MS,
  });
  queueEmailInto(op, passwordResetEmail(email, link), now, null, { noResend: NO_RESEND });
  await op.commit();
}

/** Sets a new password through a reset link; every session of the account ends. */
export async function confirmPasswordReset(
  deps: Pick<AppDeps, "kv" | "clock" | "passwordIterations">,
  token: string,
  password: string,
): Promise<void> {
  const { kv, clock } = deps;
  const resetKey = keys.passwordReset(await sha256Hex(token));
  const reset = await kv.get<ResetRecord>(resetKey);
  if (!reset.value || reset.value.expiresAt <= clock.now()) throw new InvalidInput(BAD_LINK);
  const account = await kv.get<User>(keys.user(reset.value.userId));
  if (!account.value || (account.value.generation ?? 0) !== reset.value.generation) {
    throw new InvalidInput(BAD_LINK);
  }
  const next = await withNewPassword(account.value, password, deps.passwordIterations);
  // The link is spent in the same write as the password: a second use finds nothing.
  const done = await kv.atomic().check(reset).check(account)
    .delete(resetKey)
    .set(keys.user(next.userId), next)
    .commit();
  if (!done.ok) throw new InvalidInput(BAD_LINK);
}
