/**
 * Group commit for everything that moves stock on the hot path (checkouts and payments).
 *
 * Every such change must check the versionstamp of each stock entry it writes, and within one
 * process they take turns (the "stock" lock) rather than fail each other's checks. Taking turns
 * one at a time made a checkout cost a read and a commit of its own while fifty others waited;
 * here the jobs waiting at that moment share one read of their stock entries and one atomic
 * commit. Each job decides on a working copy of the stock left by the jobs before it in the
 * batch, so the batch as a whole never sells what is not there, and the commit checks every
 * entry, so other processes and isolates are safe too.
 *
 * A job that fails (out of stock, a limit) fails alone and writes nothing. Each job claims the
 * keys it may check or write besides stock (its order, its cart, its client's holds, a payment),
 * as read by its `prepare`; a job claiming a key another job of the batch claimed waits for the
 * next batch and reads again, before it decides anything. When a commit loses a race, its jobs
 * read again and are retried one by one, so a job that keeps losing (its cart changing under it)
 * runs out of tries alone, and never costs the others theirs.
 */
import type { StockKey } from "../../shared/bom.ts";
import type { Clock } from "../clock.ts";
import { InvalidInput, Unavailable } from "../errors.ts";
import { withLock } from "../kv/kv_util.ts";
import { getStockEntries, LOW_STOCK_MUTATIONS, recordsOf, writeStockTo } from "./store.ts";
import { type StockRecord } from "./record.ts";
import { commitStockChange } from "../kv/version.ts";

/** What one job will write, decided from the working stock. */
export interface JobPlan<T> {
  /** New records of the stock entries this job moves (on top of the earlier jobs' changes). */
  stock: ReadonlyMap<StockKey, StockRecord>;
  /** Adds the job's own checks and writes (its order, indexes, queue jobs) to the batch. */
  write(op: Deno.AtomicOperation): void;
  /** How many checks and mutations `write` adds (one atomic allows 100 and 1000). */
  checks: number;
  mutations: number;
  /** What the job answers once the batch is committed. */
  result: T;
}

/** What a job read: the stock entries it moves and the other keys it may check or write. */
export interface Prepared {
  stock: readonly StockKey[];
  /**
   * Every key besides stock that the job may check or write (as "order:ST...", "cart:...",
   * "holds:<client>", "payment:<id>", "event:<id>"), whatever its plan decides; keys only this
   * job can know (a new order's number) need no claim.
   */
  exclusive: readonly string[];
}

/** A change of stock with the reads it depends on. */
export interface StockJob<T> {
  /** Reads what the job needs (outside the lock); run again whenever the batch must retry. */
  prepare(): Promise<Prepared>;
  /** Decides from the prepared reads and the working stock; a DomainError fails this job alone. */
  plan(stock: ReadonlyMap<StockKey, StockRecord>, now: number): JobPlan<T>;
  /**
   * The stock entries the job will move, when known before `prepare` (a payment knows its
   * order's): they are read alongside `prepare`'s reads instead of after them, one round trip
   * less on a remote KV. The commit checks them like any read.
   */
  stockKeys?: readonly StockKey[];
}

/** Stock entries a job read early, and how many batches this process had committed by then. */
interface Prefetched {
  entries: Map<StockKey, Deno.KvEntryMaybe<StockRecord>>;
  commits: number;
}

interface Waiting {
  job: StockJob<unknown>;
  prepared: Prepared;
  stale: boolean;
  /** After a lost race: retried in a batch of its own. */
  solo: boolean;
  attempts: number;
  /** Read with `prepare` (see StockJob.stockKeys); dropped once it may be out of date. */
  prefetched: Prefetched | null;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

interface Batcher {
  queue: Waiting[];
  running: boolean;
  /** Batches committed by this process: an early read from before the last one is stale. */
  commits: number;
}

/** Most jobs in one commit: enough to absorb a burst, few enough to stay far from KV's limits. */
const MAX_JOBS = 24;
/** One KV atomic operation's limits (local SQLite; remote stores allow at least these). */
const MAX_CHECKS = 100;
const MAX_MUTATIONS = 1000;
/** Commits a job may lose to other processes before it gives up with a clear 503. */
const MAX_ATTEMPTS = 30;

const batchers = new WeakMap<Deno.Kv, Batcher>();

/** Runs one job in the next batch of its KV store; answers the job's result once committed. */
export async function runStockJob<T>(kv: Deno.Kv, clock: Clock, job: StockJob<T>): Promise<T> {
  const batcher = batcherOf(kv);
  const commits = batcher.commits;
  const early = job.stockKeys?.length ? getStockEntries(kv, job.stockKeys) : null;
  early?.catch(() => {});
  const prepared = await job.prepare();
  const entries = early ? await early.catch(() => null) : null;
  return await new Promise<T>((resolve, reject) => {
    batcher.queue.push({
      job: job as StockJob<unknown>,
      prepared,
      stale: false,
      solo: false,
      attempts: 0,
      prefetched: entries ? { entries, commits } : null,
      resolve: resolve as (value: unknown) => void,
      reject,
    });
    if (!batcher.running) drain(kv, clock, batcher);
  });
}

function batcherOf(kv: Deno.Kv): Batcher {
  let batcher = batchers.get(kv);
  if (!batcher) {
    batcher = { queue: [], running: false, commits: 0 };
    batchers.set(kv, batcher);
  }
  return batcher;
}

async function drain(kv: Deno.Kv, clock: Clock, batcher: Batcher): Promise<void> {
  batcher.running = true;
  try {
    while (batcher.queue.length > 0) {
      await refreshStale(batcher);
      if (batcher.queue.length === 0) break;
      await withLock("stock", () => commitBatch(kv, clock, batcher));
    }
  } catch (err) {
    // A storage failure (not a lost race): every waiting job learns of it.
    for (const waiting of batcher.queue.splice(0)) waiting.reject(err);
  } finally {
    batcher.running = false;
  }
}

/** Jobs whose reads may be out of date read again, before the lock is taken. */
async function refreshStale(batcher: Batcher): Promise<void> {
  const stale = batcher.queue.filter((w) => w.stale);
  await Promise.all(stale.map(async (w) => {
    try {
      w.prepared = await w.job.prepare();
      w.prefetched = null;
      w.stale = false;
    } catch (err) {
      batcher.queue.splice(batcher.queue.indexOf(w), 1);
      w.reject(err);
    }
  }));
}

/**
 * One batch: the jobs at the head of the queue that fit one atomic write, in four steps:
 * their stock read (`readBatchStock`), each job planned on what the earlier ones left
 * (`planBatch`), one commit of all their writes with the stock they moved, and, when the commit
 * lost a race, its jobs queued again to be read afresh (`retryLost`).
 */
async function commitBatch(kv: Deno.Kv, clock: Clock, batcher: Batcher): Promise<void> {
  const head = batcher.queue[0];
  const candidates = head.solo ? [head] : batcher.queue.slice(0, MAX_JOBS).filter((w) => !w.solo);
  const entries = await readBatchStock(kv, batcher, candidates);
  const working = recordsOf(entries);
  const now = clock.now();
  const { accepted, touched } = planBatch(batcher, candidates, working, now);
  if (accepted.length === 0) return;

  let ok: boolean;
  try {
    const op = kv.atomic();
    writeStockTo(op, entries, new Map([...touched].map((k) => [k, working.get(k)!])), now);
    for (const { plan } of accepted) plan.write(op);
    ok = touched.size > 0 ? await commitStockChange(kv, op, now) : (await op.commit()).ok;
  } catch (err) {
    // Storage failed (not a lost race), or a write was refused (a value over KV's size limits):
    // nothing was written, and every job of the batch is told.
    for (const { waiting } of accepted) waiting.reject(err);
    return;
  }
  if (ok) {
    if (touched.size > 0) batcher.commits++;
    for (const { waiting, plan } of accepted) waiting.resolve(plan.result);
    return;
  }
  retryLost(batcher, accepted.map((a) => a.waiting));
  // Back off with jitter, so writers in other processes spread out.
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
}

/**
 * The stock entries every candidate moves. Entries read early serve when no batch of this process
 * has committed since (else they are surely out of date); the rest are read now. The commit
 * checks every one either way.
 */
async function readBatchStock(
  kv: Deno.Kv,
  batcher: Batcher,
  candidates: readonly Waiting[],
): Promise<Map<StockKey, Deno.KvEntryMaybe<StockRecord>>> {
  const allKeys = [...new Set(candidates.flatMap((w) => w.prepared.stock))];
  const early = new Map<StockKey, Deno.KvEntryMaybe<StockRecord>>();
  for (const w of candidates) {
    if (w.prefetched?.commits !== batcher.commits) continue;
    for (const [key, entry] of w.prefetched.entries) if (!early.has(key)) early.set(key, entry);
  }
  const missing = allKeys.filter((k) => !early.has(k));
  const read = missing.length > 0 ? await getStockEntries(kv, missing) : new Map();
  return new Map(allKeys.map((k) => [k, early.get(k) ?? read.get(k)!]));
}

/**
 * Plans each candidate on `working` as the jobs before it left it, taking those that fit one
 * atomic operation's limits. A job that claims what an earlier one writes waits for the next
 * batch; a job whose plan refuses is told, and so is one too large for any write.
 */
function planBatch(
  batcher: Batcher,
  candidates: readonly Waiting[],
  working: Map<StockKey, StockRecord>,
  now: number,
): { accepted: { waiting: Waiting; plan: JobPlan<unknown> }[]; touched: Set<StockKey> } {
  const accepted: { waiting: Waiting; plan: JobPlan<unknown> }[] = [];
  const claimed = new Set<string>();
  const touched = new Set<StockKey>();
  let checks = 0;
  let mutations = 1; // the stock version
  for (const waiting of candidates) {
    if (waiting.prepared.exclusive.some((key) => claimed.has(key))) {
      // An earlier job of this batch writes the same order, cart, holds or payment: it decides
      // in the next batch, on what that job left.
      waiting.stale = true;
      continue;
    }
    let plan: JobPlan<unknown>;
    try {
      plan = waiting.job.plan(working, now);
    } catch (err) {
      remove(batcher, waiting);
      waiting.reject(err);
      continue;
    }
    const newKeys = [...plan.stock.keys()].filter((k) => !touched.has(k)).length;
    const fits = checks + newKeys + plan.checks <= MAX_CHECKS &&
      mutations + newKeys * (1 + LOW_STOCK_MUTATIONS) + plan.mutations <= MAX_MUTATIONS;
    if (!fits) {
      if (accepted.length > 0) break;
      remove(batcher, waiting);
      waiting.reject(
        new InvalidInput(
          "This order has too many different switches and parts to reserve at once. Please split it into two orders.",
        ),
      );
      continue;
    }
    for (const [key, record] of plan.stock) {
      working.set(key, record);
      touched.add(key);
    }
    for (const key of waiting.prepared.exclusive) claimed.add(key);
    checks += newKeys + plan.checks;
    mutations += newKeys * (1 + LOW_STOCK_MUTATIONS) + plan.mutations;
    accepted.push({ waiting, plan });
    remove(batcher, waiting);
  }
  return { accepted, touched };
}

/**
 * A commit that lost a race with another process, or whose job's own check failed: its jobs read
 * again and are retried one by one; only a job that loses on its own uses up its tries.
 */
function retryLost(batcher: Batcher, lost: readonly Waiting[]): void {
  const retry: Waiting[] = [];
  for (const waiting of lost) {
    if (lost.length === 1) waiting.attempts++;
    if (waiting.attempts >= MAX_ATTEMPTS) {
      waiting.reject(
        new Unavailable(
          "The shop is very busy and could not save this change. Nothing was changed; please try again.",
        ),
      );
    } else {
      waiting.stale = true;
      waiting.prefetched = null;
      waiting.solo = lost.length > 1 || waiting.solo;
      retry.push(waiting);
    }
  }
  batcher.queue.unshift(...retry);
}

function remove(batcher: Batcher, waiting: Waiting): void {
  const i = batcher.queue.indexOf(waiting);
  if (i >= 0) batcher.queue.splice(i, 1);
}

/** Jobs waiting for a batch of `kv` (tests use it to line jobs up in one batch). */
export function queuedJobs(kv: Deno.Kv): number {
  return batchers.get(kv)?.queue.length ?? 0;
}
