/**
 * The countdown of the stock hold on an unpaid order, shown beside 'Pay now' on both payment
 * pages. The server says how many seconds its own clock has left; the page counts those down from
 * the moment the answer arrived, so a wrong clock on the shopper's machine cannot shift the end.
 */
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { toast } from "react-hot-toast";
import type { PublicOrderView } from "../../../shared/api_types.ts";
import type { ExtendHoldInput } from "../../../shared/schemas.ts";
import { api, errorMessage } from "../../app/api.ts";
import { holdAnnouncement } from "./hold_announcement.ts";

/** Where a hold ends, on the page's own clocks: the server's seconds left at the answer's arrival. */
export interface HoldEnd {
  seconds: number;
  monotonic: number;
  wall: number;
}

/** The hold of an order view as it arrives now; null when the server reports none. */
export function holdEndOf(view: PublicOrderView): HoldEnd | null {
  // Read loosely: the shared type gains the field with the server change that sends it.
  const seconds = (view as { holdSecondsLeft?: number | null }).holdSecondsLeft ?? null;
  if (seconds === null || !Number.isFinite(seconds)) return null;
  return { seconds: Math.max(0, seconds), monotonic: performance.now(), wall: Date.now() };
}

function secondsLeft(end: HoldEnd): number {
  // The monotonic clock ignores clock changes but may stand still while the machine sleeps, and
  // the wall clock counts through sleep: the larger elapsed time wins, so the page never promises
  // more time than the server's hold has left.
  const elapsedMs = Math.max(performance.now() - end.monotonic, Date.now() - end.wall, 0);
  return Math.max(0, Math.ceil(end.seconds - elapsedMs / 1000));
}

/** Whole seconds left on the hold, kept current; null without a hold. */
export function useHoldSecondsLeft(end: HoldEnd | null): number | null {
  const [tick, setTick] = useState<{ end: HoldEnd; seconds: number } | null>(null);

  useEffect(() => {
    if (!end) return;
    function update(hold: HoldEnd): number {
      const seconds = secondsLeft(hold);
      // Same second, same state: React skips the render, so the page redraws once a second.
      setTick((t) => t?.end === hold && t.seconds === seconds ? t : { end: hold, seconds });
      return seconds;
    }
    if (update(end) === 0) return;
    // Polled more often than once a second so a late timer never makes the clock skip a second.
    const timer = setInterval(() => {
      if (update(end) === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [end]);

  if (!end) return null;
  return tick?.end === end ? tick.seconds : secondsLeft(end);
}

/** 29:41; minutes keep counting past 99 for a long hold. */
export function formatHold(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;
}

/** One extension the page may offer: its minutes, and the call that makes it. */
export interface HoldExtension {
  minutes: number;
  /** Resolves null when the hold was extended, else the reason for the shopper. */
  run: () => Promise<string | null>;
}

/**
 * The hold of a payment page with its one extension: the seconds left, the extension to offer
 * (null once used, or when the server offers none) and how much it added once used. `start` is
 * the hold as the page loaded it; an extension belongs to that hold, so a new checkout's hold
 * (a new `start`) starts afresh.
 */
export function useExtendableHold(
  start: HoldEnd | null,
  offer: { orderNumber: string; paymentId: string; minutes: number | null } | null,
): { seconds: number | null; extension: HoldExtension | null; extendedBy: number | null } {
  const [extended, setExtended] = useState<
    { from: HoldEnd | null; hold: HoldEnd | null; minutes: number } | null
  >(null);
  const current = extended?.from === start ? extended : null;
  const seconds = useHoldSecondsLeft(current ? current.hold : start);
  const minutes = offer?.minutes ?? null;
  const extension = !current && offer && minutes !== null && seconds !== null && seconds > 0
    ? {
      minutes,
      async run(): Promise<string | null> {
        try {
          const view = await api<PublicOrderView>(
            `/api/orders/${encodeURIComponent(offer.orderNumber)}/extend-hold`,
            { method: "POST", body: { paymentId: offer.paymentId } satisfies ExtendHoldInput },
          );
          setExtended({ from: start, hold: holdEndOf(view), minutes });
          return null;
        } catch (err) {
          return errorMessage(err, "Your hold could not be extended. Please try again.");
        }
      },
    }
    : null;
  return { seconds, extension, extendedBy: current?.minutes ?? null };
}

/**
 * The hold's clock, its one extension and what happens at zero; nothing without a hold. Give it
 * a `key` per order, so a new order's hold starts its announcements afresh.
 */
export function HoldCountdown(
  { seconds, extension = null, extendedBy = null }: {
    seconds: number | null;
    extension?: HoldExtension | null;
    extendedBy?: number | null;
  },
) {
  const minutes = seconds === null ? null : Math.ceil(seconds / 60);
  // Marks are spoken only when reached on this page: since it opened, or since the extension.
  const [since, setSince] = useState<{ minutes: number | null; extendedBy: number | null }>({
    minutes,
    extendedBy,
  });
  if (since.extendedBy !== extendedBy) setSince({ minutes, extendedBy });
  const [busy, setBusy] = useState(false);
  const clock = useRef<HTMLParagraphElement>(null);
  const wasOffered = useRef(false);
  if (extension) wasOffered.current = true;

  useEffect(() => {
    // The button leaves once used: the focus goes to the clock it changed, not to the page.
    if (extendedBy !== null && wasOffered.current) clock.current?.focus();
  }, [extendedBy]);

  if (seconds === null || minutes === null) return null;
  if (seconds === 0) {
    return (
      <div className="hold-countdown hold-ended" role="alert">
        <p className="error-text">Your hold has ended. Return to your cart to check out again.</p>
        <Link to="/cart" className="button secondary">Go to cart</Link>
      </div>
    );
  }

  async function extend() {
    if (busy || !extension) return;
    setBusy(true);
    const problem = await extension.run();
    setBusy(false);
    if (problem) toast.error(problem);
  }

  return (
    <div className="hold-countdown">
      <p
        className="hold-clock"
        role="timer"
        aria-live="off"
        aria-atomic="true"
        ref={clock}
        tabIndex={-1}
      >
        We're holding your items for <strong>{formatHold(seconds)}</strong>
      </p>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {holdAnnouncement(minutes, since.minutes ?? minutes, extendedBy)}
      </p>
      {extension && (
        <p>
          <button
            type="button"
            className="button secondary small-button"
            // Focusable while it works, so the focus stays put (a disabled button drops it).
            aria-disabled={busy}
            onClick={extend}
          >
            Keep my items {extension.minutes} more minutes
          </button>
        </p>
      )}
      <p className="muted small">
        {extension ? `You can keep them ${extension.minutes} minutes longer, once. ` : ""}If the
        timer runs out, the items go back on sale and this payment can no longer be made; return to
        your cart to check out again.
      </p>
    </div>
  );
}
