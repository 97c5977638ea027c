/** Small helpers over Deno KV's limits (10 keys per getMany, 1000 mutations per atomic). */

/** Reads any number of keys, ten at a time, in parallel. */
export async function getManyBatched<T>(
  kv: Deno.Kv,
  keys: Deno.KvKey[],
): Promise<Deno.KvEntryMaybe<T>[]> {
  const batches: Deno.KvKey[][] = [];
  for (let i = 0; i < keys.length; i += 10) batches.push(keys.slice(i, i + 10));
  const results = await Promise.all(batches.map((batch) => kv.getMany<T[]>(batch)));
  return results.flat() as Deno.KvEntryMaybe<T>[];
}

/** All values under a prefix. */
export async function listValues<T>(kv: Deno.Kv, prefix: Deno.KvKey): Promise<T[]> {
  const values: T[] = [];
  for await (const entry of kv.list<T>({ prefix })) values.push(entry.value);
  return values;
}

/** Random id of `bytes` random bytes, base64url without padding. */
export function randomId(bytes = 16): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

/** What an attempt returns when its commit lost a race and should run again. */
export const CONFLICT: unique symbol = Symbol("conflict");

/**
 * Runs an optimistic transaction: `attempt` reads, checks versionstamps and commits; on a conflict
 * it runs again, a bounded number of times, so concurrent writers never lose each other's work.
 */
export async function withRetries<T>(
  attempt: () => Promise<T | typeof CONFLICT>,
  what: string,
  tries = 20,
): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const result = await attempt();
    if (result !== CONFLICT) return result;
    // Back off a little, with jitter, so contending writers spread out.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** i)));
  }
  throw new Error(`Could not ${what}: too much contention`);
}
