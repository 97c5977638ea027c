/**
 * One request of a page, stoppable: its answer is reported only while it is still wanted. Kept
 * apart from the React hook (use_request.ts) so the rule can be tested without rendering.
 */

/** How a request ended. */
export type Outcome<T> = { ok: true; data: T } | { ok: false; error: unknown };

/**
 * Starts `loader` with an abort signal and reports its outcome once, unless it was stopped first:
 * the returned function aborts the call and silences any answer still on its way, so a page
 * never shows the answer to a question it no longer asks (a stale id, a left page).
 */
export function startRequest<T>(
  loader: (signal: AbortSignal) => Promise<T>,
  report: (outcome: Outcome<T>) => void,
): () => void {
  const controller = new AbortController();
  let wanted = true;
  // Promise.resolve().then: a loader that throws before returning a promise fails like one
  // that rejects.
  Promise.resolve().then(() => loader(controller.signal)).then(
    (data) => {
      if (wanted) report({ ok: true, data });
    },
    (error) => {
      if (wanted) report({ ok: false, error });
    },
  );
  return () => {
    wanted = false;
    controller.abort();
  };
}
