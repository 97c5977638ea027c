/**
 * The stock version: one KV key that every write of stock or catalogue records sets in the same
 * atomic operation, so readers can cache whatever depends on them (the catalogue answers, the
 * stock snapshot of cart adds) by its versionstamp.
 *
 * Reading that key on every request was the largest cost of `GET /api/switches` (see the README's
 * figures), so a read is trusted for a while, with two rules that keep answers honest:
 * - writes made by this process (every shop writer commits through `commitStockChange`) are seen
 *   by every request that arrives after the write was answered: they invalidate the trusted read;
 * - writes made elsewhere (other isolates on Deno Deploy, another process on the same file, a
 *   restore) are seen within `TRUST_MS`, since local KV files cannot notify other processes.
 * Only advisory reads depend on this: the checkout's reservation checks each stock entry itself.
 */
import { keys } from "./keys.ts";

/** How long a read of the version is trusted when this process wrote nothing since. */
export const TRUST_MS = 250;

interface TrustedRead {
  versionstamp: string | null;
  /** When the read was asked for (no later than when it began), from the monotonic clock. */
  askedAt: number;
  /** `local` when it was asked for: a later local write makes it untrustworthy. */
  local: number;
}

interface State {
  read: () => Promise<string | null>;
  /** Milliseconds, from the app's injected clock (`useClock`); tests move it by hand. */
  now: () => number;
  trusted: TrustedRead | null;
  /** Counts this process's committed stock writes. */
  local: number;
}

const states = new WeakMap<Deno.Kv, State>();

function stateOf(kv: Deno.Kv): State {
  let state = states.get(kv);
  if (!state) {
    state = {
      read: versionReader(kv, keys.stockVersion()),
      now: () => performance.now(),
      trusted: null,
      local: 0,
    };
    states.set(kv, state);
  }
  return state;
}

/** Measures the trust window of `kv`'s version reads with the app's clock (createApp calls it). */
export function useClock(kv: Deno.Kv, clock: { now(): number }): void {
  stateOf(kv).now = () => clock.now();
}

/** The versionstamp of the stock version (null when never set), trusted as the module says. */
export async function readStockVersion(kv: Deno.Kv): Promise<string | null> {
  const state = stateOf(kv);
  const askedAt = state.now();
  const trusted = state.trusted;
  if (trusted && trusted.local === state.local && askedAt - trusted.askedAt < TRUST_MS) {
    return trusted.versionstamp;
  }
  const local = state.local;
  const versionstamp = await state.read();
  // Of concurrent reads, the one asked for last is the freshest to trust.
  if (!state.trusted || askedAt >= state.trusted.askedAt) {
    state.trusted = { versionstamp, askedAt, local };
  }
  return versionstamp;
}

/**
 * Sets the stock version in `op` and commits it; on success, this process's readers see the
 * change at once. Returns whether the commit went through.
 */
export async function commitStockChange(
  kv: Deno.Kv,
  op: Deno.AtomicOperation,
  now: number,
): Promise<boolean> {
  const result = await op.set(keys.stockVersion(), now).commit();
  // This process's readers see the change at once: their trusted reads are now stale.
  if (result.ok) stateOf(kv).local++;
  return result.ok;
}

/** A view kept per stock version: built on demand, or peeked at without waiting for a build. */
export interface PerStockVersion<T> {
  (kv: Deno.Kv): Promise<T>;
  /**
   * The view, only if the one already built is of the current version; otherwise null, and a
   * build starts in the background (at most one per TRUST_MS). For readers with a cheaper way of
   * their own: on a shop that sells, the version changes every few orders, and building on every
   * change would cost more than the reads it saves.
   */
  peek(kv: Deno.Kv): Promise<T | null>;
}

/**
 * Makes `build` run once per stock version per KV store, its result shared by concurrent and later
 * callers until the version changes: advisory views of stock and catalogue that would otherwise
 * cost reads on every request. A store with no version yet builds on every call.
 */
export function perStockVersion<T>(build: (kv: Deno.Kv) => Promise<T>): PerStockVersion<T> {
  const latest = new WeakMap<Deno.Kv, Promise<{ versionstamp: string; value: T }>>();
  /** The newest view built, with this process's change count when its version was read. */
  const built = new WeakMap<Deno.Kv, { versionstamp: string; value: T; local: number }>();
  const started = new WeakMap<Deno.Kv, number>();

  async function snapshot(kv: Deno.Kv): Promise<T> {
    const local = stateOf(kv).local;
    const versionstamp = await readStockVersion(kv);
    if (versionstamp === null) return await build(kv);
    const pending = latest.get(kv);
    const current = pending ? await pending.catch(() => null) : null;
    if (current?.versionstamp === versionstamp) return current.value;
    started.set(kv, stateOf(kv).now());
    const next = build(kv).then((value) => {
      const done = { versionstamp, value, local };
      const previous = built.get(kv);
      if (!previous || versionstamp > previous.versionstamp) built.set(kv, done);
      return done;
    });
    // A slower rebuild for an older version never replaces a newer one.
    if (!current || versionstamp > current.versionstamp) latest.set(kv, next);
    return (await next).value;
  }

  snapshot.peek = async function peek(kv: Deno.Kv): Promise<T | null> {
    const done = built.get(kv);
    // This process changed stock since that view was read: stale, no need to ask KV.
    const current = done && done.local === stateOf(kv).local &&
      done.versionstamp === await readStockVersion(kv);
    if (current) return done.value;
    if (stateOf(kv).now() - (started.get(kv) ?? -Infinity) >= TRUST_MS) {
      snapshot(kv).catch(() => {});
    }
    return null;
  };
  return snapshot;
}

/**
 * Reads a key's versionstamp for many concurrent requests with few KV reads. A caller never gets
 * the result of a read that was already under way when it asked (that read may predate a write
 * the caller must see): it joins the next read, started once the current one ends. So every
 * answer reflects all writes committed before its request arrived, as if each read the key
 * itself, while a burst of N requests costs about two reads instead of N.
 */
function versionReader(kv: Deno.Kv, key: Deno.KvKey): () => Promise<string | null> {
  let current: Promise<string | null> | null = null;
  let queued: Promise<string | null> | null = null;
  /** The read started in the code running now: asking now is asking before it is sent. */
  let startedNow: Promise<string | null> | null = null;

  function start(): Promise<string | null> {
    const read = kv.get(key).then((entry) => entry.versionstamp);
    current = read;
    startedNow = read;
    // Calls made before the running code yields (one request asking for several views at once)
    // share this read; any later call may have arrived after a write it must see.
    queueMicrotask(() => {
      if (startedNow === read) startedNow = null;
    });
    read.then(done, done);
    function done() {
      if (current === read) current = null;
    }
    return read;
  }

  function next(): Promise<string | null> {
    queued = null;
    return start();
  }

  return function readVersion(): Promise<string | null> {
    if (!current) return start();
    if (startedNow === current) return current;
    queued ??= current.then(next, next);
    return queued;
  };
}
