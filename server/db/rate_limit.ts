import type { Clock } from "../deps.ts";
import { LimitReached } from "../errors.ts";
import { keys } from "./keys.ts";
import { CONFLICT, withRetries } from "./kv_util.ts";

/** A limit: at most `max` hits per `windowMs` for one client in one bucket. */
export interface RateLimit {
  bucket: string;
  max: number;
  windowMs: number;
}

/**
 * Counts a hit and throws LimitReached past the limit. Counters live in KV (not in memory) so
 * the limit holds across processes and restarts.
 */
export async function hitRateLimit(
  kv: Deno.Kv,
  clock: Clock,
  limit: RateLimit,
  client: string,
  message?: string,
): Promise<void> {
  const count = await countHit(kv, clock, limit, client);
  if (count > limit.max) throw new LimitReached(message);
}

/** Counts a hit and returns the count in the current window. */
export async function countHit(
  kv: Deno.Kv,
  clock: Clock,
  limit: RateLimit,
  client: string,
): Promise<number> {
  const window = Math.floor(clock.now() / limit.windowMs);
  const key = keys.rateLimit(limit.bucket, client, window);
  // Check-and-set rather than sum(), because only a set can carry the expiry that cleans up.
  return await withRetries(
    async () => {
      const entry = await kv.get<number>(key);
      const count = (entry.value ?? 0) + 1;
      const result = await kv.atomic().check(entry)
        .set(key, count, { expireIn: limit.windowMs * 2 }).commit();
      return result.ok ? count : CONFLICT;
    },
    "count the request",
    `rate:${key.join("/")}`,
  );
}

/** Whether a client is already over the limit, without counting a hit. */
export async function isLimited(
  kv: Deno.Kv,
  clock: Clock,
  limit: RateLimit,
  client: string,
): Promise<boolean> {
  const window = Math.floor(clock.now() / limit.windowMs);
  const entry = await kv.get<number>(keys.rateLimit(limit.bucket, client, window));
  return (entry.value ?? 0) >= limit.max;
}

/** Forgets a client's hits in the current window (a correct password clears failures). */
export async function resetRateLimit(
  kv: Deno.Kv,
  clock: Clock,
  limit: RateLimit,
  client: string,
): Promise<void> {
  const window = Math.floor(clock.now() / limit.windowMs);
  await kv.delete(keys.rateLimit(limit.bucket, client, window));
}
