import type { Clock } from "../clock.ts";

/** Clients remembered at most; one forgotten comes back with a full budget. */
const MAX_CLIENTS = 10_000;

/**
 * A budget of work per client, in memory: `perMinute` units, spent one at a time and earned back
 * evenly over the minute (a token bucket holding at most one minute's worth). It guards work this
 * process does on its own CPU (rendering a page or a picture), so it is counted here rather than
 * in KV: a KV write would cost more than the check saves, and another instance's CPU has its own
 * budget. Clients are forgotten oldest first past MAX_CLIENTS; one forgotten starts full, which
 * gives nobody more than having a new address would.
 */
export function createClientBudget(perMinute: number, clock: Clock) {
  const perMs = perMinute / 60_000;
  const buckets = new Map<string, { units: number; at: number }>();

  return {
    /**
     * Spends one unit of `client`'s budget: null when there was one, else the whole seconds
     * until there is (for Retry-After).
     */
    take(client: string): number | null {
      const now = clock.now();
      const bucket = buckets.get(client) ?? { units: perMinute, at: now };
      bucket.units = Math.min(perMinute, bucket.units + Math.max(0, now - bucket.at) * perMs);
      bucket.at = now;
      buckets.delete(client);
      buckets.set(client, bucket);
      if (buckets.size > MAX_CLIENTS) buckets.delete(buckets.keys().next().value!);
      if (bucket.units >= 1) {
        bucket.units -= 1;
        return null;
      }
      return Math.max(1, Math.ceil((1 - bucket.units) / perMs / 1000));
    },
  };
}

/** A client's render budget (createClientBudget). */
export type ClientBudget = ReturnType<typeof createClientBudget>;
