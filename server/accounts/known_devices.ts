/**
 * Devices that have signed in to an account before (SECURITY.md, guessing passwords). A
 * successful sign-in gives the browser a random token in an HttpOnly cookie and records it for
 * that account; past the account's ceiling, an attempt carrying it is judged on its own failures
 * alone, so no storm of guesses from elsewhere can keep the rightful user off their own device.
 * The token proves only that this browser once knew the password: it opens nothing by itself.
 */
import type { Clock } from "../clock.ts";
import { newToken, sha256Hex } from "../crypto.ts";
import { keys } from "../kv/keys.ts";

/** A device stays known for 90 days after its last successful sign-in. */
export const KNOWN_DEVICE_MS = 90 * 24 * 60 * 60_000;

/** What a token looks like (newToken: 256 bits, base64url); anything else is never looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

interface KnownDevice {
  /** When the device stops being known unless it signs in again. */
  until: number;
}

/**
 * Records that the device holding `token` (a new token when it has none, or a malformed one)
 * signed in to `account` just now; answers the token for the cookie.
 */
export async function rememberDevice(
  kv: Deno.Kv,
  clock: Clock,
  account: string,
  token: string | undefined,
): Promise<string> {
  const kept = token !== undefined && TOKEN_SHAPE.test(token) ? token : newToken();
  await kv.set(
    keys.knownDevice(account, await sha256Hex(kept)),
    { until: clock.now() + KNOWN_DEVICE_MS } satisfies KnownDevice,
    { expireIn: KNOWN_DEVICE_MS },
  );
  return kept;
}

/**
 * The device's id (its token's hash, never the token) when `token` has signed in to `account`
 * within KNOWN_DEVICE_MS, else null.
 */
export async function knownDeviceId(
  kv: Deno.Kv,
  clock: Clock,
  account: string,
  token: string | undefined,
): Promise<string | null> {
  if (token === undefined || !TOKEN_SHAPE.test(token)) return null;
  const id = await sha256Hex(token);
  const device = (await kv.get<KnownDevice>(keys.knownDevice(account, id))).value;
  return device && device.until > clock.now() ? id : null;
}

/** Forgets every device known to `account` (the account is deleted). */
export async function forgetDevices(kv: Deno.Kv, account: string): Promise<void> {
  for await (const entry of kv.list({ prefix: keys.knownDevicesOf(account) })) {
    await kv.delete(entry.key);
  }
}
