import { AsyncLocalStorage } from "node:async_hooks";
import { Unavailable } from "../errors.ts";

/**
 * Small helpers over Deno KV's limits (10 keys per getMany; 100 checks and 1000 mutations per
 * atomic write).
 */

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

/**
 * Entries per list round trip: KV's largest page. The default (100) splits the 120-odd switches or
 * stock entries into two pages, one after the other: one more round trip on a remote KV.
 */
export const LIST_BATCH = 500;

/** All values under a prefix. */
export async function listValues<T>(kv: Deno.Kv, prefix: Deno.KvKey): Promise<T[]> {
  const values: T[] = [];
  for await (const entry of kv.list<T>({ prefix }, { batchSize: LIST_BATCH })) {
    values.push(entry.value);
  }
  return values;
}

/** What an attempt returns when its commit lost a race and should run again. */
export const CONFLICT: unique symbol = Symbol("conflict");

const locks = new Map<string, Promise<void>>();
const lockScope = new AsyncLocalStorage<Deno.Kv>();
const scopedLocks = new WeakMap<Deno.Kv, Map<string, Promise<void>>>();

/**
 * Runs `fn` (and all it starts) with lock turns of its own, kept for `kv`. A process running one
 * shop never calls it. Tests that run several app instances in one process, each over its own KV
 * object, wrap each instance's work in it, so the instances race for KV as isolates on Deno Deploy
 * do, rather than take turns they would not take there.
 */
export function withLocksOf<T>(kv: Deno.Kv, fn: () => T): T {
  return lockScope.run(kv, fn);
}

function currentLocks(): Map<string, Promise<void>> {
  const kv = lockScope.getStore();
  if (!kv) return locks;
  let scoped = scopedLocks.get(kv);
  if (!scoped) scopedLocks.set(kv, scoped = new Map());
  return scoped;
}

/**
 * Runs `fn` after every earlier call with the same key in this process has finished. Writers of
 * the same entries then take turns instead of failing each other's version checks: on one process
 * (local KV) that removes conflicts entirely, and across isolates it leaves only the rarer ones.
 */
export async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const turns = currentLocks();
  const previous = turns.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  turns.set(key, tail);
  await previous;
  try {
    return await fn();
  } finally {
    release();
    if (turns.get(key) === tail) turns.delete(key);
  }
}

/**
 * Runs an optimistic transaction: `attempt` reads, checks versionstamps and commits; on a conflict
 * (another process won the race) it runs again, a bounded number of times, so concurrent writers
 * never lose each other's work. Attempts sharing a `lock` key take turns within this process.
 */
export async function withRetries<T>(
  attempt: () => Promise<T | typeof CONFLICT>,
  what: string,
  lock?: string,
): Promise<T> {
  const run = async () => {
    for (let i = 0; i < MAX_TRIES; i++) {
      const result = await attempt();
      if (result !== CONFLICT) return result;
      // Back off with jitter, so writers in other processes spread out.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 ** i)));
    }
    throw new Unavailable(
      `The shop is very busy and could not ${what}. Nothing was changed; please try again.`,
    );
  };
  return lock ? await withLock(lock, run) : await run();
}

const MAX_TRIES = 30;

/** How `setMissing` writes. */
export interface SetMissingOptions {
  /**
   * Commits one batch and answers whether it landed (the stock's writes bump its version, so
   * views kept per version see the new records); a plain commit by default.
   */
  commit?: (op: Deno.AtomicOperation) => Promise<boolean>;
  /**
   * The caller found the store holding nothing a moment ago (a new shop's first start, as
   * `migrate` reports it): the keys are written without reading each first (the seed's 30 reads of
   * ten keys, a round trip of waiting before each seeder's first write on a remote KV).
   */
  storeWasEmpty?: boolean;
}

/**
 * Checks per atomic write are limited to 100 by KV, and each key written here is checked absent.
 */
const SET_MISSING_BATCH = 100;

/**
 * Sets each key that does not exist yet, never overwriting; returns how many were written. Every
 * write checks its keys are absent, so a key someone else wrote first (the owner, another process
 * seeding the same store) is kept, and the batch is read again and its still-missing keys written.
 */
export async function setMissing(
  kv: Deno.Kv,
  entries: [Deno.KvKey, unknown][],
  options: SetMissingOptions = {},
): Promise<number> {
  const commit = options.commit ?? (async (op) => (await op.commit()).ok);
  const missing = options.storeWasEmpty ? entries : await absentOf(kv, entries);
  let written = 0;
  for (let i = 0; i < missing.length; i += SET_MISSING_BATCH) {
    written += await setAbsent(kv, missing.slice(i, i + SET_MISSING_BATCH), commit);
  }
  return written;
}

/** The entries whose keys the store does not hold. */
async function absentOf(
  kv: Deno.Kv,
  entries: [Deno.KvKey, unknown][],
): Promise<[Deno.KvKey, unknown][]> {
  const existing = await getManyBatched(kv, entries.map(([key]) => key));
  return entries.filter((_, i) => existing[i].versionstamp === null);
}

/**
 * Writes a batch believed absent in one checked write; when one of its keys turns out written
 * meanwhile, reads which are still absent and tries again (a failed batch left alone would leave
 * every other key of it missing until the next start).
 */
async function setAbsent(
  kv: Deno.Kv,
  batch: [Deno.KvKey, unknown][],
  commit: (op: Deno.AtomicOperation) => Promise<boolean>,
): Promise<number> {
  let left = batch;
  for (let tries = 0; left.length > 0; tries++) {
    if (tries === MAX_TRIES) {
      throw new Unavailable(
        `${left.length} keys kept being written while they were seeded; start the shop again`,
      );
    }
    const op = kv.atomic();
    for (const [key, value] of left) op.check({ key, versionstamp: null }).set(key, value);
    if (await commit(op)) return left.length;
    left = await absentOf(kv, left);
  }
  return 0;
}

/**
 * Like Promise.all, but answers (or throws the first failure) only once every promise has settled:
 * writes a request started together have all landed before it answers, even when one of them
 * refused. Promise.all rejects at the first refusal, leaving the others' writes on their way.
 */
export async function allLanded<T>(writes: Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(writes);
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}
