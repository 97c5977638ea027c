import type { Clock } from "../clock.ts";
import { LimitReached } from "../errors.ts";
import { keys } from "./keys.ts";
import { CONFLICT, withRetries } from "./kv_util.ts";

/** A limit: at most `max` attempts per `windowMs` for one client in one bucket. */
export interface RateLimit {
  bucket: string;
  max: number;
  windowMs: number;
}

/** A counted attempt, which an attempt that turned out rightful may give back. */
export interface Hit {
  /** Takes this attempt back off the count (a right password, an order that exists). */
  giveBack(): Promise<void>;
}

/** A counted attempt, and where it stands against its limit. */
export interface Count extends Hit {
  /** The window's count, this attempt included. */
  count: number;
  /** False when this attempt is past the limit. */
  within: boolean;
  /** Seconds until the window ends, when a refused caller may try again. */
  retryAfterSeconds: number;
}

/**
 * Counts an attempt, then throws LimitReached (with the seconds until the window ends) when the
 * count is past the limit. Counting comes first and is atomic, so parallel attempts are numbered
 * one by one and exactly `max` of them go on to compare a password or look anything up. Counters
 * live in KV (not in memory) so the limit holds across processes and restarts.
 */
export async function hitRateLimit(
  kv: Deno.Kv,
  clock: Clock,
  limit: RateLimit,
  client: string,
  message?: string,
): Promise<Hit> {
  const counted = await countAttempt(kv, clock, limit, client);
  if (!counted.within) throw new LimitReached(message, counted.retryAfterSeconds, limit.bucket);
  return counted;
}

/**
 * Counts an attempt like hitRateLimit, but answers where it stands instead of throwing, for
 * callers that choose between limits (and may give the count back when they choose another).
 */
export async function countAttempt(
  kv: Deno.Kv,
  clock: Clock,
  limit: RateLimit,
  client: string,
): Promise<Count> {
  const now = clock.now();
  const window = Math.floor(now / limit.windowMs);
  const count = await addToCount(kv, limit, client, window, 1);
  return {
    count,
    within: count <= limit.max,
    retryAfterSeconds: ((window + 1) * limit.windowMs - now) / 1000,
    giveBack: () => addToCount(kv, limit, client, window, -1).then(() => undefined),
  };
}

/** Forgets a client's attempts in the current window (a right password clears the wrong ones). */
export async function resetRateLimit(
  kv: Deno.Kv,
  clock: Clock,
  limit: RateLimit,
  client: string,
): Promise<void> {
  const window = Math.floor(clock.now() / limit.windowMs);
  await kv.delete(keys.rateLimit(limit.bucket, client, window));
}

/** Adds `delta` to a window's count (never below 0) and answers the new count. */
async function addToCount(
  kv: Deno.Kv,
  limit: RateLimit,
  client: string,
  window: number,
  delta: number,
): Promise<number> {
  const key = keys.rateLimit(limit.bucket, client, window);
  // Check-and-set rather than sum(): only a set answers the count it wrote and carries the
  // expiry that cleans up. Writers of one counter take turns in this process (the lock), so a
  // burst costs no conflicts here and stays exact across isolates through the version check.
  return await withRetries(
    async () => {
      const entry = await kv.get<number>(key);
      const count = Math.max(0, (entry.value ?? 0) + delta);
      const result = await kv.atomic().check(entry)
        .set(key, count, { expireIn: limit.windowMs * 2 }).commit();
      return result.ok ? count : CONFLICT;
    },
    "count the request",
    `rate:${key.join("/")}`,
  );
}
