/**
 * A Deno KV that behaves as if it were a network hop away, as on Deno Deploy, where many isolates
 * share one strongly consistent store: each call waits before it answers, and the calls each
 * request makes are counted, including how many of them had to wait for one another.
 *
 * Each call's delay is split in two, half before the real call and half after, so a read's value
 * is as old as the way back and a commit's checks are judged mid-flight, as with a real hop; this
 * keeps conflict windows under concurrency honest. With every delay 0 no timer is ever set, so
 * separate wrappers over one KV stand for separate isolates (the shop's in-memory caches are keyed
 * by the KV object) without slowing anything.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** How long each kind of KV call takes to answer, in milliseconds. */
export interface Latency {
  /** get, getMany and each page of a list. */
  readMs: number;
  /** atomic().commit(), and set or delete outside an atomic operation. */
  commitMs: number;
  /** enqueue outside an atomic operation. */
  enqueueMs: number;
}

/** Figures in the region of a Deno Deploy KV seen from an isolate. */
export const DEFAULT_LATENCY: Latency = { readMs: 3, commitMs: 15, enqueueMs: 15 };

/** One KV call of a measured request, for finding where sequential calls come from. */
export interface KvCall {
  /** get, getMany, list, commit, set, delete or enqueue. */
  method: string;
  /** The keys the call touched (key parts joined by "/"), or what the commit did. */
  detail: string;
  /** Its place on the critical path: 1 + the deepest call of the request that had finished. */
  depth: number;
}

/** What `measure` answers. */
export interface Measured<T> {
  result: T;
  /** KV calls the request made (a list counts once per page it fetched). */
  calls: number;
  /** The longest chain of calls each of which started after the one before it finished. */
  roundTrips: number;
  /** The calls in the order they started. */
  log: KvCall[];
}

interface Tally {
  calls: number;
  deepestFinished: number;
  roundTrips: number;
  log: KvCall[];
  /** Set once the request has answered; calls it left running count as background work. */
  closed: boolean;
}

/** Where one call is counted; `finish` is called as it answers. */
interface Started {
  finish(): void;
}

const noteNothing: Started = { finish() {} };

/** Shortens a key to something readable in a call log. */
function keyText(key: Deno.KvKey): string {
  return key.map((part) => typeof part === "string" ? part : String(part)).join("/");
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs `call` with `ms` of delay around it, split half before and half after; with 0 it hands
 * back the call's own promise, so no timer is set.
 */
async function delayed<T>(ms: number, call: () => Promise<T>, started: Started): Promise<T> {
  const before = Math.floor(ms / 2);
  if (before > 0) await sleep(before);
  const result = await call();
  if (ms - before > 0) await sleep(ms - before);
  started.finish();
  return result;
}

/** A KV wrapper that delays and counts every call; pass it wherever a `Deno.Kv` is wanted. */
export class RemoteKv implements Deno.Kv {
  readonly latency: Latency;
  /** Calls made outside any measured request (queue work, seeding, requests already answered). */
  readonly background = { calls: 0 };
  readonly #kv: Deno.Kv;
  readonly #requests = new AsyncLocalStorage<Tally>();

  constructor(kv: Deno.Kv, latency: Partial<Latency> = {}) {
    this.#kv = kv;
    this.latency = { ...DEFAULT_LATENCY, ...latency };
  }

  /** The real KV underneath, for a test's own setup that should not be counted or delayed. */
  get inner(): Deno.Kv {
    return this.#kv;
  }

  /** Counts a call that is starting, against the request it belongs to if any. */
  start(method: string, detail: () => string): Started {
    const tally = this.#requests.getStore();
    if (!tally || tally.closed) {
      this.background.calls++;
      return noteNothing;
    }
    const depth = tally.deepestFinished + 1;
    tally.calls++;
    tally.log.push({ method, detail: detail(), depth });
    return {
      finish() {
        tally.deepestFinished = Math.max(tally.deepestFinished, depth);
        tally.roundTrips = Math.max(tally.roundTrips, depth);
      },
    };
  }

  /** Runs one call with `ms` of delay, counted; a pure pass-through when nothing needs doing. */
  run<T>(ms: number, method: string, detail: () => string, call: () => Promise<T>): Promise<T> {
    const started = this.start(method, detail);
    if (ms === 0 && started === noteNothing) return call();
    return delayed(ms, call, started);
  }

  /** Runs `fn` as one request whose calls are counted apart from every other request's. */
  async measure<T>(fn: () => Promise<T>): Promise<Measured<T>> {
    const tally: Tally = { calls: 0, deepestFinished: 0, roundTrips: 0, log: [], closed: false };
    try {
      const result = await this.#requests.run(tally, fn);
      return { result, calls: tally.calls, roundTrips: tally.roundTrips, log: tally.log };
    } finally {
      tally.closed = true;
    }
  }

  get<T = unknown>(
    key: Deno.KvKey,
    options?: { consistency?: Deno.KvConsistencyLevel },
  ): Promise<Deno.KvEntryMaybe<T>> {
    return this.run(
      this.latency.readMs,
      "get",
      () => keyText(key),
      () => this.#kv.get<T>(key, options),
    );
  }

  getMany<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: Deno.KvKey }],
    options?: { consistency?: Deno.KvConsistencyLevel },
  ): Promise<{ [K in keyof T]: Deno.KvEntryMaybe<T[K]> }> {
    return this.run(
      this.latency.readMs,
      "getMany",
      () => keys.map(keyText).join(", "),
      () => this.#kv.getMany<T>(keys, options),
    );
  }

  set(
    key: Deno.KvKey,
    value: unknown,
    options?: { expireIn?: number },
  ): Promise<Deno.KvCommitResult> {
    return this.run(
      this.latency.commitMs,
      "set",
      () => keyText(key),
      () => this.#kv.set(key, value, options),
    );
  }

  delete(key: Deno.KvKey): Promise<void> {
    return this.run(
      this.latency.commitMs,
      "delete",
      () => keyText(key),
      () => this.#kv.delete(key),
    );
  }

  list<T = unknown>(
    selector: Deno.KvListSelector,
    options?: Deno.KvListOptions,
  ): Deno.KvListIterator<T> {
    return new RemoteListIterator<T>(this, this.#kv.list<T>(selector, options), selector, options);
  }

  enqueue(
    value: unknown,
    options?: { delay?: number; keysIfUndelivered?: Deno.KvKey[]; backoffSchedule?: number[] },
  ): Promise<Deno.KvCommitResult> {
    return this.run(
      this.latency.enqueueMs,
      "enqueue",
      () => jobText(value),
      () => this.#kv.enqueue(value, options),
    );
  }

  // deno-lint-ignore no-explicit-any
  listenQueue(handler: (value: any) => Promise<void> | void): Promise<void> {
    // Deliveries arrive outside any request, so the handler's calls count as background work.
    return this.#kv.listenQueue(handler);
  }

  atomic(): Deno.AtomicOperation {
    return new RemoteAtomic(this, this.#kv.atomic());
  }

  watch<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: Deno.KvKey }],
    options?: { raw?: boolean },
  ): ReadableStream<{ [K in keyof T]: Deno.KvEntryMaybe<T[K]> }> {
    return this.#kv.watch<T>(keys, options);
  }

  commitVersionstamp(): symbol {
    return this.#kv.commitVersionstamp();
  }

  close(): void {
    this.#kv.close();
  }

  [Symbol.dispose](): void {
    this.#kv.close();
  }
}

/** What a queued job is, for the call log. */
function jobText(value: unknown): string {
  const type = (value as { type?: unknown } | null)?.type;
  return typeof type === "string" ? `job ${type}` : "job";
}

/**
 * An atomic operation whose commit is one delayed call. Checks receive the real entries the
 * wrapper's reads handed out, so conflict detection is the real KV's own.
 */
class RemoteAtomic implements Deno.AtomicOperation {
  readonly #kv: RemoteKv;
  readonly #op: Deno.AtomicOperation;
  readonly #parts: string[] = [];

  constructor(kv: RemoteKv, op: Deno.AtomicOperation) {
    this.#kv = kv;
    this.#op = op;
  }

  check(...checks: Deno.AtomicCheck[]): this {
    this.#op.check(...checks);
    for (const c of checks) this.#parts.push(`check ${keyText(c.key)}`);
    return this;
  }

  mutate(...mutations: Deno.KvMutation[]): this {
    this.#op.mutate(...mutations);
    for (const m of mutations) this.#parts.push(`${m.type} ${keyText(m.key)}`);
    return this;
  }

  sum(key: Deno.KvKey, n: bigint): this {
    this.#op.sum(key, n);
    this.#parts.push(`sum ${keyText(key)}`);
    return this;
  }

  min(key: Deno.KvKey, n: bigint): this {
    this.#op.min(key, n);
    this.#parts.push(`min ${keyText(key)}`);
    return this;
  }

  max(key: Deno.KvKey, n: bigint): this {
    this.#op.max(key, n);
    this.#parts.push(`max ${keyText(key)}`);
    return this;
  }

  set(key: Deno.KvKey, value: unknown, options?: { expireIn?: number }): this {
    this.#op.set(key, value, options);
    this.#parts.push(`set ${keyText(key)}`);
    return this;
  }

  delete(key: Deno.KvKey): this {
    this.#op.delete(key);
    this.#parts.push(`delete ${keyText(key)}`);
    return this;
  }

  enqueue(
    value: unknown,
    options?: { delay?: number; keysIfUndelivered?: Deno.KvKey[]; backoffSchedule?: number[] },
  ): this {
    this.#op.enqueue(value, options);
    this.#parts.push(`enqueue ${jobText(value)}`);
    return this;
  }

  commit(): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
    return this.#kv.run(
      this.#kv.latency.commitMs,
      "commit",
      () => this.#parts.join("; "),
      () => this.#op.commit(),
    );
  }
}

/**
 * A list that fetches in pages as the real one does (batchSize, else limit, else 100; at most
 * 500): each page is one delayed call, started by the `next()` that needs it.
 */
class RemoteListIterator<T> implements Deno.KvListIterator<T> {
  readonly #kv: RemoteKv;
  readonly #inner: Deno.KvListIterator<T>;
  readonly #page: number;
  readonly #limit: number;
  readonly #what: string;
  #seen = 0;

  constructor(
    kv: RemoteKv,
    inner: Deno.KvListIterator<T>,
    selector: Deno.KvListSelector,
    options: Deno.KvListOptions = {},
  ) {
    this.#kv = kv;
    this.#inner = inner;
    this.#page = Math.min(500, Math.max(1, options.batchSize ?? options.limit ?? 100));
    this.#limit = options.limit ?? Infinity;
    this.#what = "prefix" in selector
      ? `${keyText(selector.prefix)}/*`
      : `${"start" in selector ? keyText(selector.start) : ""}..${
        "end" in selector ? keyText(selector.end) : ""
      }`;
  }

  get cursor(): string {
    return this.#inner.cursor;
  }

  async next(): Promise<IteratorResult<Deno.KvEntry<T>, undefined>> {
    // Only the item that opens a page waits for the store; the rest of the page is already here.
    const result = this.#seen % this.#page === 0 && this.#seen < this.#limit
      ? await this.#kv.run(
        this.#kv.latency.readMs,
        "list",
        () => this.#what,
        () => this.#inner.next(),
      )
      : await this.#inner.next();
    if (!result.done) this.#seen++;
    return result;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Deno.KvEntry<T>> {
    return this;
  }
}

/** A new wrapper over `kv` (so it has its own caches in the shop), with the given delays. */
export function remoteKv(kv: Deno.Kv, latency: Partial<Latency> = {}): RemoteKv {
  return new RemoteKv(kv, latency);
}

/** Runs `fn` as one request on `kv` and answers its result with the KV calls it made. */
export function measure<T>(kv: RemoteKv, fn: () => Promise<T>): Promise<Measured<T>> {
  return kv.measure(fn);
}
