/**
 * The process's stop as requests see it: whether the shop is stopping, and which requests with a
 * body are still in hand. The stop waits for those before it closes the listener, because Deno
 * 2.9's `server.shutdown()` makes every request body still arriving unreadable at once
 * (denoland/deno#36809): an upload under way would be cut off instead of finished.
 */
export interface ShutdownGate {
  /** True once a stop has begun: requests arriving from then on are turned away. */
  stopping(): boolean;
  /** Counts `work` (a request with a body, from its arrival to its answer) until it settles. */
  track<T>(work: Promise<T>): Promise<T>;
  /**
   * Begins the stop, then resolves with 0 once no counted request is left, or, if `bound`
   * resolves first, with how many are still in hand (a client sending too slowly).
   */
  drain(bound: Promise<unknown>): Promise<number>;
}

/** A gate for one process (main.ts) or one test app. */
export function shutdownGate(): ShutdownGate {
  let stopping = false;
  let inHand = 0;
  let idle: (() => void) | undefined;
  return {
    stopping: () => stopping,
    async track(work) {
      inHand++;
      try {
        return await work;
      } finally {
        inHand--;
        if (inHand === 0) idle?.();
      }
    },
    async drain(bound) {
      stopping = true;
      if (inHand === 0) return 0;
      const settled = new Promise<void>((resolve) => idle = resolve);
      await Promise.race([settled, bound]);
      return inHand;
    },
  };
}
