/**
 * How many password hashes run at once (SECURITY.md, "starving the shop with password hashing").
 *
 * Web Crypto's PBKDF2 runs on a thread of its own, so a hash never blocks the event loop; but each
 * hash keeps a core busy for tens of milliseconds, and a burst of sign-ins with no cap starts one
 * thread per attempt: the threads then share the cores with the event loop, and every request
 * waits. So hashes take a permit first: cores - 1 of them, leaving a core to the event loop.
 * Attempts without a permit wait in a short FIFO queue; past it they are answered 503 with
 * Retry-After at once, rather than waiting tens of seconds for their turn.
 */
import { Unavailable } from "./errors.ts";

/** A bounded number of tasks at once, a bounded queue behind them, and refusal past it. */
export interface Gate {
  /** Tasks that may run at once. */
  readonly permits: number;
  /** Tasks that may wait for a permit; one more is refused. */
  readonly queue: number;
  /**
   * Runs `task` once a permit is free, in arrival order; throws Unavailable without running it
   * when the queue is full. The permit is given back however the task ends.
   */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running and waiting now. */
  load(): { running: number; waiting: number };
}

/** Options of a gate. */
export interface GateOptions {
  permits: number;
  queue: number;
  /** What Retry-After says to a refused caller. */
  retryAfterSeconds?: number;
}

/** What a refused sign-in or sign-up reads. */
export const BUSY_MESSAGE =
  "The shop is busy signing other people in. Please try again in a few seconds.";

/**
 * Waiting hashes per permit. A 600,000-iteration hash takes about 75 ms on one core of the bench
 * machine (and perhaps 250 ms on a slow, shared one), so the last in the queue waits 8 hashes:
 * 0.6 s here, about 2 s on a slow machine. That absorbs an ordinary rush of sign-ins while a burst
 * cannot make anyone wait tens of seconds. Per permit, so the wait stays the same on more cores.
 */
export const QUEUE_PER_PERMIT = 8;

/**
 * Seconds a refused caller is told to wait: by then a full queue has drained, even on a slow
 * machine (8 hashes of 250 ms).
 */
export const RETRY_AFTER_SECONDS = 3;

/** Permits for a machine with `cores` cores: all but one, and at least one. */
export function permitsFor(cores: number): number {
  return Math.max(1, Math.floor(cores) - 1);
}

/** A gate of `permits` running tasks and `queue` waiting ones. */
export function createGate(
  { permits, queue, retryAfterSeconds = RETRY_AFTER_SECONDS }: GateOptions,
): Gate {
  if (!Number.isInteger(permits) || permits < 1) throw new RangeError(`permits ${permits}`);
  if (!Number.isInteger(queue) || queue < 0) throw new RangeError(`queue ${queue}`);
  let running = 0;
  const waiters: (() => void)[] = [];

  function release(): void {
    // The permit passes straight to the first waiter, so a newcomer cannot take it first.
    const next = waiters.shift();
    if (next) next();
    else running--;
  }

  async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running < permits) running++;
    else if (waiters.length >= queue) throw new Unavailable(BUSY_MESSAGE, retryAfterSeconds);
    else await new Promise<void>((resolve) => waiters.push(resolve));
    try {
      return await task();
    } finally {
      release();
    }
  }

  return {
    permits,
    queue,
    run,
    load: () => ({ running, waiting: waiters.length }),
  };
}

const PERMITS = permitsFor(navigator.hardwareConcurrency || 1);

/** The shop's one gate for password hashing (sign-ins and sign-ups). */
export const passwordGate: Gate = createGate({
  permits: PERMITS,
  queue: PERMITS * QUEUE_PER_PERMIT,
});
