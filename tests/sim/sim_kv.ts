/**
 * The simulation's view of Deno KV: every shop instance gets its own wrapper of the one store (so
 * its in-memory caches and stock batches are its own, as an isolate's are), and the wrapper hands
 * what would leave the store's hands to the simulated world instead:
 * - Deno KV's queue is refused (`enqueue`, in or outside atomic operations): the shop's work owed
 *   later is stored jobs, which Deno Deploy and KV Connect stores can run, and the history runs
 *   them when due;
 * - every committed write of a stock record is logged with its versionstamp, so the invariants can
 *   replay each component's stock, write by write, in commit order;
 * - a dead instance (a process that died at a step boundary) reaches the store no more: every
 *   call it makes after its death throws, as nothing of a dead process is written.
 */
import { keys } from "../../server/kv/keys.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import type { StockKey } from "../../shared/bom.ts";

/** Thrown inside a process that the history kills. */
export class SimCrash extends Error {
  constructor(where: string) {
    super(`simulated crash: ${where}`);
  }
}

/** What a wrapper needs from the world. */
export interface KvWorld {
  /** The store (replaced by a restore). */
  readonly store: Deno.Kv;
  /** Records stock records written by one commit. */
  logStock(versionstamp: string, writes: [StockKey, StockRecord][]): void;
  /** Records the keys one commit wrote (set, deleted or summed), whatever they hold. */
  logWrites(keys: Deno.KvKey[]): void;
}

const STOCK_PREFIX = keys.stocks()[0];

/** Deno Deploy and KV Connect stores have no queue: a shop that used it could not run there. */
const NO_QUEUE = "the shop used Deno KV's queue, which Deno Deploy and KV Connect do not offer";

/** One instance's KV. */
export class SimKv implements Deno.Kv {
  #world: KvWorld;
  /** Set when the instance's process dies: nothing it does afterwards reaches the store. */
  dead = false;
  /** Store calls on their way (reads and commits), for World.quiesce. */
  readonly inFlight = new Set<Promise<unknown>>();
  /** Commits begun, and those on their way now. */
  commitsBegun = 0;
  commitsInFlight = 0;

  constructor(world: KvWorld) {
    this.#world = world;
  }

  /** Throws when the process is dead. */
  alive(): void {
    if (this.dead) throw new SimCrash("a dead process touched the store");
  }

  get world(): KvWorld {
    return this.#world;
  }

  async get<T = unknown>(
    key: Deno.KvKey,
    options?: { consistency?: Deno.KvConsistencyLevel },
  ): Promise<Deno.KvEntryMaybe<T>> {
    this.alive();
    const entry = await this.track(this.#world.store.get<T>(key, options));
    this.alive();
    return entry;
  }

  async getMany<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: Deno.KvKey }],
    options?: { consistency?: Deno.KvConsistencyLevel },
  ): Promise<{ [K in keyof T]: Deno.KvEntryMaybe<T[K]> }> {
    this.alive();
    const entries = await this.track(this.#world.store.getMany<T>(keys, options));
    this.alive();
    return entries;
  }

  async set(
    key: Deno.KvKey,
    value: unknown,
    options?: { expireIn?: number },
  ): Promise<Deno.KvCommitResult> {
    return await this.atomic().set(key, value, options).commit() as Deno.KvCommitResult;
  }

  async delete(key: Deno.KvKey): Promise<void> {
    await this.atomic().delete(key).commit();
  }

  list<T = unknown>(
    selector: Deno.KvListSelector,
    options?: Deno.KvListOptions,
  ): Deno.KvListIterator<T> {
    this.alive();
    const inner = this.#world.store.list<T>(selector, options);
    const alive = () => this.alive();
    const track = <R>(call: Promise<R>) => this.track(call);
    return {
      get cursor() {
        return inner.cursor;
      },
      async next() {
        alive();
        const result = await track(inner.next());
        alive();
        return result;
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    } as Deno.KvListIterator<T>;
  }

  enqueue(): Promise<Deno.KvCommitResult> {
    throw new Error(NO_QUEUE);
  }

  listenQueue(): Promise<void> {
    throw new Error(NO_QUEUE);
  }

  /** Notes a store call while it is on its way. */
  track<R>(call: Promise<R>): Promise<R> {
    this.inFlight.add(call);
    const done = () => this.inFlight.delete(call);
    call.then(done, done);
    return call;
  }

  atomic(): Deno.AtomicOperation {
    return new SimAtomic(this, this.#world.store.atomic());
  }

  watch<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: Deno.KvKey }],
    options?: { raw?: boolean },
  ): ReadableStream<{ [K in keyof T]: Deno.KvEntryMaybe<T[K]> }> {
    return this.#world.store.watch<T>(keys, options);
  }

  commitVersionstamp(): symbol {
    return this.#world.store.commitVersionstamp();
  }

  close(): void {
    // The world owns the store.
  }

  [Symbol.dispose](): void {}
}

/** An atomic operation whose stock writes reach the world once it commits. */
class SimAtomic implements Deno.AtomicOperation {
  readonly #kv: SimKv;
  readonly #op: Deno.AtomicOperation;
  readonly #stock = new Map<StockKey, StockRecord>();
  readonly #written: Deno.KvKey[] = [];

  constructor(kv: SimKv, op: Deno.AtomicOperation) {
    this.#kv = kv;
    this.#op = op;
  }

  check(...checks: Deno.AtomicCheck[]): this {
    this.#op.check(...checks);
    return this;
  }

  mutate(...mutations: Deno.KvMutation[]): this {
    this.#op.mutate(...mutations);
    this.#written.push(...mutations.map((m) => m.key));
    for (const m of mutations) {
      if (m.type === "set") this.#noteStock(m.key, m.value);
      else this.#noteStock(m.key, undefined);
    }
    return this;
  }

  sum(key: Deno.KvKey, n: bigint): this {
    this.#op.sum(key, n);
    this.#written.push(key);
    return this;
  }

  min(key: Deno.KvKey, n: bigint): this {
    this.#op.min(key, n);
    this.#written.push(key);
    return this;
  }

  max(key: Deno.KvKey, n: bigint): this {
    this.#op.max(key, n);
    this.#written.push(key);
    return this;
  }

  set(key: Deno.KvKey, value: unknown, options?: { expireIn?: number }): this {
    this.#op.set(key, value, options);
    this.#written.push(key);
    this.#noteStock(key, value);
    return this;
  }

  delete(key: Deno.KvKey): this {
    this.#op.delete(key);
    this.#written.push(key);
    this.#noteStock(key, undefined);
    return this;
  }

  enqueue(): this {
    throw new Error(NO_QUEUE);
  }

  async commit(): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
    this.#kv.alive();
    this.#kv.commitsBegun++;
    this.#kv.commitsInFlight++;
    let result: Deno.KvCommitResult | Deno.KvCommitError;
    try {
      result = await this.#kv.track(this.#op.commit());
    } finally {
      this.#kv.commitsInFlight--;
    }
    if (result.ok) {
      const world = this.#kv.world;
      if (this.#stock.size > 0) world.logStock(result.versionstamp, [...this.#stock]);
      world.logWrites(this.#written);
    }
    return result;
  }

  #noteStock(key: Deno.KvKey, value: unknown): void {
    if (key[0] !== STOCK_PREFIX || key.length !== 2) return;
    if (value === undefined) throw new Error(`the shop deleted the stock record ${String(key[1])}`);
    this.#stock.set(key[1] as StockKey, value as StockRecord);
  }
}
