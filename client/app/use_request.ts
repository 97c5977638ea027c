import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { type Outcome, startRequest } from "./request_runner.ts";
import { usePageOutcome } from "./page_data.ts";

/**
 * Where a page's request stands. `data` is the last answer for the current key: it stays while a
 * reload runs or fails, so a page can keep showing it (a poll that misses once).
 */
export type RequestState<T> =
  | { state: "idle"; data: null; error: null }
  | { state: "loading"; data: T | null; error: null }
  | { state: "loaded"; data: T; error: null }
  | { state: "failed"; data: T | null; error: unknown };

/** A request state and the way to ask again. */
export type Request<T> = RequestState<T> & { reload: () => void };

interface Settled<T> {
  key: string;
  attempt: number;
  outcome: Outcome<T>;
  /** The last answer for this key, kept through later failures. */
  lastData: T | null;
}

/**
 * Loads data for a page: runs `loader` whenever `key` changes (null: nothing to load) or
 * `reload` is called, aborts the call that is no longer wanted and ignores its late answer. The
 * key stands for everything the loader reads (an id, a token); the loader itself may change
 * every render without starting a new request. `initial`, when it gives one, is how the request went
 * when the page was made (its answer, or the API's refusal): the state starts there and the first
 * load is skipped.
 */
export function useRequest<T>(
  key: string | null,
  loader: (signal: AbortSignal) => Promise<T>,
  initial?: () => Outcome<T> | undefined,
): Request<T> {
  const [attempt, setAttempt] = useState(0);
  const [settled, setSettled] = useState<Settled<T> | null>(() => {
    const outcome = key === null ? undefined : initial?.();
    return key === null || outcome === undefined
      ? null
      : { key, attempt: 0, outcome, lastData: outcome.ok ? outcome.data : null };
  });
  // A page that came with its answer (server-rendered) does not ask for it again on mount.
  const seeded = useRef(settled !== null);
  // An event, not a dependency: a new loader closure each render must not repeat the request.
  const load = useEffectEvent(loader);

  useEffect(() => {
    if (key === null) return;
    if (seeded.current) {
      seeded.current = false;
      return;
    }
    return startRequest((signal) => load(signal), (outcome) => {
      setSettled((previous) => ({
        key,
        attempt,
        outcome,
        lastData: outcome.ok ? outcome.data : previous?.key === key ? previous.lastData : null,
      }));
    });
  }, [key, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...requestState(key, attempt, settled), reload };
}

/** The state for the current key and attempt, from the last settled request. */
function requestState<T>(
  key: string | null,
  attempt: number,
  settled: Settled<T> | null,
): RequestState<T> {
  if (key === null) return { state: "idle", data: null, error: null };
  const sameKey = settled?.key === key;
  const data = sameKey ? settled.lastData : null;
  if (!sameKey || settled.attempt !== attempt) return { state: "loading", data, error: null };
  return settled.outcome.ok
    ? { state: "loaded", data: settled.outcome.data, error: null }
    : { state: "failed", data, error: settled.outcome.error };
}

/**
 * useRequest for one GET of the shop's API: how it went when the page was made
 * (usePageOutcome) is used first, then `select` shapes the raw answer for the page, on the server and in the browser.
 */
export function useApiRequest<R, T>(
  path: string | null,
  select: (raw: R) => T,
  loader: (signal: AbortSignal) => Promise<R>,
): Request<T> {
  const served = usePageOutcome(path) as Outcome<R> | undefined;
  return useRequest(
    path,
    async (signal) => select(await loader(signal)),
    () => served?.ok ? { ok: true, data: select(served.data) } : served,
  );
}
