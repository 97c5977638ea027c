/**
 * The countdown of the stock hold on an unpaid order, shown beside 'Pay now' on both payment
 * pages. The server says how many seconds its own clock has left; the page counts those down from
 * the moment the answer arrived, so a wrong clock on the shopper's machine cannot shift the end.
 */
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import type { PublicOrderView } from "../../../shared/api_types.ts";

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

function minutesText(minutes: number): string {
  return minutes === 1 ? "1 minute left on your hold." : `${minutes} minutes left on your hold.`;
}

/**
 * The hold's clock and what happens at zero; nothing without a hold. Give it a `key` per order,
 * so a new order's hold starts its announcements afresh.
 */
export function HoldCountdown({ seconds }: { seconds: number | null }) {
  const minutes = seconds === null ? null : Math.ceil(seconds / 60);
  // Screen readers hear the hold once a minute, as each whole minute is reached, not every
  // second; the clock itself (role timer) is read only when the shopper moves to it.
  const [firstMinutes] = useState(minutes);
  if (seconds === null || minutes === null) return null;
  if (seconds === 0) {
    return (
      <div className="hold-countdown hold-ended" role="alert">
        <p className="error-text">Your hold has ended. Return to your cart to check out again.</p>
        <Link to="/cart" className="button secondary">Go to cart</Link>
      </div>
    );
  }
  return (
    <div className="hold-countdown">
      <p className="hold-clock" role="timer" aria-live="off" aria-atomic="true">
        We're holding your items for <strong>{formatHold(seconds)}</strong>
      </p>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {minutes === firstMinutes ? "" : minutesText(minutes)}
      </p>
      <p className="muted small">
        If the timer runs out, the items go back on sale and this payment can no longer be made;
        return to your cart to check out again.
      </p>
    </div>
  );
}
