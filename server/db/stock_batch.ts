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
 * A job that fails (out of stock, a limit) fails alone and writes nothing. A job whose own keys
 * (its order, its cart, its client's holds) another job of the same batch already writes waits
 * for the next batch and reads them again. When a commit loses a race, every job of the batch
 * reads again and is retried, a bounded number of times.
 */
import type { StockKey } from "../../shared/bom.ts";
import type { Clock } from "../deps.ts";
import { InvalidInput, Unavailable } from "../errors.ts";
import { withLock } from "./kv_util.ts";
import { getStockEntries, recordsOf, type StockRecord, writeStockTo } from "./stock.ts";
import { commitStockChange } from "./stock_version.ts";

/** What one job will write, decided from the working stock. */
export interface JobPlan<T> {
  /** New records of the stock entries this job moves (on top of the earlier jobs' changes). */
  stock: ReadonlyMap<StockKey, StockRecord>;
  /** Adds the job's own checks and writes (its order, indexes, queue jobs) to the batch. */
  write(op: Deno.AtomicOperation): void;
  /** Keys this job checks or writes that no other job of the same batch may touch. */
  exclusive: readonly string[];
  /** How many checks and mutations `write` adds (one atomic allows 100 and 1000). */
  checks: number;
  mutations: number;
  /** What the job answers once the batch is committed. */
  result: T;
}

/** A change of stock with the reads it depends on. */
export interface StockJob<T> {
  /** Reads what the job needs (outside the lock); run again whenever the batch must retry. */
  prepare(): Promise<readonly StockKey[]>;
  /** Decides from the prepared reads and the working stock; a DomainError fails this job alone. */
  plan(stock: ReadonlyMap<StockKey, StockRecord>, now: number): JobPlan<T>;
}

interface Waiting {
  job: StockJob<unknown>;
  stockKeys: readonly StockKey[];
  stale: boolean;
  attempts: number;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

interface Batcher {
  queue: Waiting[];
  running: boolean;
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
  const stockKeys = await job.prepare();
  return await new Promise<T>((resolve, reject) => {
    let batcher = batchers.get(kv);
    if (!batcher) {
      batcher = { queue: [], running: false };
      batchers.set(kv, batcher);
    }
    batcher.queue.push({
      job: job as StockJob<unknown>,
      stockKeys,
      stale: false,
      attempts: 0,
      resolve: resolve as (value: unknown) => void,
      reject,
    });
    if (!batcher.running) drain(kv, clock, batcher);
  });
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
      w.stockKeys = await w.job.prepare();
      w.stale = false;
    } catch (err) {
      batcher.queue.splice(batcher.queue.indexOf(w), 1);
      w.reject(err);
    }
  }));
}

async function commitBatch(kv: Deno.Kv, clock: Clock, batcher: Batcher): Promise<void> {
  const candidates = batcher.queue.slice(0, MAX_JOBS);
  const allKeys = [...new Set(candidates.flatMap((w) => w.stockKeys))];
  const entries = await getStockEntries(kv, allKeys);
  const working = recordsOf(entries);
  const now = clock.now();

  const accepted: { waiting: Waiting; plan: JobPlan<unknown> }[] = [];
  const exclusive = new Set<string>();
  const touched = new Set<StockKey>();
  let checks = 0;
  let mutations = 1; // the stock version
  for (const waiting of candidates) {
    let plan: JobPlan<unknown>;
    try {
      plan = waiting.job.plan(working, now);
    } catch (err) {
      remove(batcher, waiting);
      waiting.reject(err);
      continue;
    }
    if (plan.exclusive.some((key) => exclusive.has(key))) {
      // An earlier job of this batch writes the same order, cart or holds: next batch, read anew.
      waiting.stale = true;
      continue;
    }
    const newKeys = [...plan.stock.keys()].filter((k) => !touched.has(k)).length;
    const fits = checks + newKeys + plan.checks <= MAX_CHECKS &&
      mutations + newKeys + plan.mutations <= MAX_MUTATIONS;
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
    for (const key of plan.exclusive) exclusive.add(key);
    checks += newKeys + plan.checks;
    mutations += newKeys + plan.mutations;
    accepted.push({ waiting, plan });
    remove(batcher, waiting);
  }
  if (accepted.length === 0) return;

  const op = kv.atomic();
  writeStockTo(op, entries, new Map([...touched].map((k) => [k, working.get(k)!])));
  for (const { plan } of accepted) plan.write(op);
  const ok = touched.size > 0 ? await commitStockChange(kv, op, now) : (await op.commit()).ok;
  if (ok) {
    for (const { waiting, plan } of accepted) waiting.resolve(plan.result);
    return;
  }
  // Lost a race with another process (or a job's own check failed): read again and retry.
  const retry: Waiting[] = [];
  for (const { waiting } of accepted) {
    waiting.attempts++;
    if (waiting.attempts >= MAX_ATTEMPTS) {
      waiting.reject(
        new Unavailable(
          "The shop is very busy and could not save this change. Nothing was changed; please try again.",
        ),
      );
    } else {
      waiting.stale = true;
      retry.push(waiting);
    }
  }
  batcher.queue.unshift(...retry);
  // Back off with jitter, so writers in other processes spread out.
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
}

function remove(batcher: Batcher, waiting: Waiting): void {
  const i = batcher.queue.indexOf(waiting);
  if (i >= 0) batcher.queue.splice(i, 1);
}
