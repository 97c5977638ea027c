/**
 * What a process loads only when first needed (a library most processes never use): the first
 * call starts the load and every call shares it; a load that failed is not kept, so the next call
 * asks again. The promise has its rejection handled from the start, so a load nobody awaited yet
 * never ends the process as an unhandled rejection.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    if (!loading) {
      const started = load();
      loading = started;
      started.catch(() => {
        if (loading === started) loading = null;
      });
    }
    return loading;
  };
}
