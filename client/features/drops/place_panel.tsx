import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import type { DropPublicView, TicketAnswer } from "../../../shared/drops.ts";
import { errorMessage } from "../../app/api.ts";
import { announce } from "../../app/announcer/announcements.ts";
import { NotifyMe } from "../../app/components/notify_me.tsx";
import { addWithPlace, joinDrop } from "../../app/drops/drop_api.ts";
import { countdownWords, formatCountdown } from "../../app/drops/drop_clock.ts";
import { notifyTargetOf } from "../../app/drops/drop_panel.tsx";
import type { KeptPlace } from "../../app/drops/drop_places.ts";
import {
  estimateText,
  limitReachedText,
  placeText,
  placeWorthSaying,
} from "../../app/drops/place_text.ts";
import { useSecondsUntil } from "../../app/drops/use_seconds_until.ts";
import type { PlaceState } from "./use_place.ts";

/**
 * What the page says aloud, politely: the turn, the end, and the place only when it moved a lot
 * (placeWorthSaying), never on every poll.
 */
function useSpokenPlace(answer: TicketAnswer | null): void {
  const lastPlace = useRef<number | null>(null);
  const lastState = useRef<string | null>(null);
  useEffect(() => {
    if (!answer) return;
    if (answer.state !== lastState.current) {
      const first = lastState.current === null;
      lastState.current = answer.state;
      if (answer.state === "admitted") return announce("It's your turn: you can buy now.");
      if (answer.state === "soldOut") return announce("Sold out: nothing is left in this drop.");
      if (answer.state === "expired") return announce("Your turn lapsed.");
      if (answer.state === "limitReached") {
        return announce("You already have this drop's limit per person.");
      }
      if (!first && answer.position === undefined) return;
    }
    if (answer.state !== "waiting" || answer.position === undefined) return;
    if (placeWorthSaying(lastPlace.current, answer.position)) {
      lastPlace.current = answer.position;
      announce(placeText(answer.position));
    }
  }, [answer]);
}

/** The way to buy for an admitted shopper: the add with the ticket, or the configurator. */
function BuyNow({ drop, place }: { drop: DropPublicView; place: KeptPlace }) {
  const navigate = useNavigate();
  const [quantity, setQuantity] = useState(1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (drop.target.kind === "switch") {
    return (
      <Link className="button" to={`/testers/custom?switches=${drop.target.id}`}>
        Build your tester with {drop.name}
      </Link>
    );
  }

  async function add() {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await addWithPlace(drop.target.id, quantity, place);
      navigate("/cart");
    } catch (err) {
      setError(errorMessage(err, "That did not work. Please try again."));
      setBusy(false);
    }
  }

  const most = Math.max(1, Math.min(drop.perPersonLimit, drop.unitsLeft || drop.perPersonLimit));
  return (
    <div className="drop-buy">
      {most > 1 && (
        <label className="field">
          <span>How many</span>
          <select value={quantity} onChange={(e) => setQuantity(Number(e.target.value))}>
            {Array.from({ length: most }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>{n}</option>
            ))}
          </select>
        </label>
      )}
      <button type="button" className="button" onClick={add} aria-disabled={busy}>
        {busy ? "Adding..." : "Add to cart and check out"}
      </button>
      {error && <p className="error-text" role="alert">{error}</p>}
    </div>
  );
}

/** The turn's countdown: how long the admitted shopper has to start a checkout. */
function TurnClock({ until, offsetMs }: { until: string; offsetMs: number | null }) {
  const seconds = useSecondsUntil(until, offsetMs, 0);
  return (
    <p className="drop-countdown" role="timer" aria-label={`${countdownWords(seconds)} left`}>
      Start your checkout within{" "}
      <span className="drop-countdown-clock">{formatCountdown(seconds)}</span>
    </p>
  );
}

/**
 * The shopper's place: nothing known on the server (the place lives in this browser), then the
 * way in, the place and its estimate, the turn, or the end.
 */
export function PlacePanel({ drop, phase, state }: {
  drop: DropPublicView;
  phase: DropPublicView["phase"];
  state: PlaceState;
}) {
  const { place, answer, offsetMs, lost } = state;
  const [joining, setJoining] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useSpokenPlace(answer);

  async function join() {
    if (joining) return;
    setJoining(true);
    setError(null);
    try {
      state.setPlace(await joinDrop(drop.id, drop.target));
    } catch (err) {
      setError(errorMessage(err, "We could not reach the waiting room. Please try again."));
    } finally {
      setJoining(false);
    }
  }

  if (answer?.cancelled) {
    return <p data-state="over">This drop was called off: the product sells as usual again.</p>;
  }
  const soldOut = answer?.state === "soldOut" || (!place && phase === "soldOut");
  if (soldOut) {
    return (
      <div className="drop-place-body" data-state="soldOut">
        <p className="drop-place-big">Sold out</p>
        <p>Every unit of this drop is taken. Ask to hear when {drop.name} is back in stock:</p>
        <NotifyMe target={notifyTargetOf(drop.target)} name={drop.name} />
      </div>
    );
  }
  if (place === undefined) {
    return <p className="muted" data-state="looking">Looking for your place in line...</p>;
  }
  if (!place) {
    if (phase === "cancelled") return <p data-state="over">This drop was called off.</p>;
    const canJoin = phase === "room" || phase === "open";
    return (
      <div className="drop-place-body" data-state="none">
        {lost && <p className="warn-text">{lost}. You can join the line again.</p>}
        {canJoin
          ? (
            <button type="button" className="button" onClick={join} aria-disabled={joining}>
              {joining ? "Joining..." : "Join the waiting room"}
            </button>
          )
          : <p>The waiting room opens two minutes before the drop: come back then.</p>}
        {error && <p className="error-text" role="alert">{error}</p>}
      </div>
    );
  }
  if (!answer) {
    return <p className="muted" data-state="checking">Checking your place in line...</p>;
  }
  if (answer.state === "admitted") {
    return (
      <div className="drop-place-body" data-state="admitted">
        <p className="drop-place-big">It's your turn</p>
        {answer.admittedUntil && <TurnClock until={answer.admittedUntil} offsetMs={offsetMs} />}
        <BuyNow drop={drop} place={place} />
      </div>
    );
  }
  if (answer.state === "limitReached") {
    return (
      <div className="drop-place-body" data-state="limitReached">
        <p className="drop-place-big">You have your share</p>
        <p>{limitReachedText(drop.perPersonLimit)}</p>
      </div>
    );
  }
  if (answer.state === "expired") {
    return (
      <div className="drop-place-body" data-state="expired">
        <p className="drop-place-big">Your turn lapsed</p>
        <p>
          No checkout started within {drop.holdMinutes}{" "}
          minutes of your turn, so the units went to the next shoppers in line.
        </p>
      </div>
    );
  }
  return (
    <div className="drop-place-body" data-state="waiting">
      <p className="drop-place-big">
        {answer.position === undefined ? "You are in the waiting room" : placeText(answer.position)}
      </p>
      <p>{estimateText(answer)}</p>
      <p className="muted small">
        Your place is kept in this browser: you can reload or close this page and come back.
      </p>
    </div>
  );
}
