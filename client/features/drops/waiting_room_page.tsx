import { useEffect, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router-dom";
import type { DropPublicView } from "../../../shared/drops.ts";
import { api, ApiError } from "../../app/api.ts";
import { dropForPath } from "../../app/drops/drop_api.ts";
import {
  clockOffset,
  countdownWords,
  formatCountdown,
  roomOpensAt,
  secondsUntil,
  utcText,
} from "../../app/drops/drop_clock.ts";
import { parseTargetParam } from "../../app/drops/drop_places.ts";
import { phaseNow } from "../../app/drops/drop_phase.ts";
import { useSecondsUntil } from "../../app/drops/use_seconds_until.ts";
import { useApiRequest } from "../../app/use_request.ts";
import { PlacePanel } from "./place_panel.tsx";
import { usePlace } from "./use_place.ts";

/** What a page without its drop says. */
function NoDrop({ message }: { message: string }) {
  return (
    <div className="page waiting-room">
      <h1>Waiting room</h1>
      <p role="alert">{message}</p>
      <Link className="button secondary" to="/shop">Back to the shop</Link>
    </div>
  );
}

/**
 * /drops/:id: a drop's waiting room. The server renders the drop and its countdown (the same for
 * every shopper, so the first paint never waits on the place); the place, which lives in this
 * browser, then fills the box kept for it.
 */
export function WaitingRoomPage() {
  const { id = "" } = useParams();
  const [params] = useSearchParams();
  const target = parseTargetParam(params.get("target"));
  const path = target ? dropForPath(target) : null;
  const load = useApiRequest(
    path,
    (drop: DropPublicView | null) => drop,
    (signal) => api<DropPublicView | null>(path!, { signal }),
  );
  if (!target) return <NoDrop message="This waiting room's link is incomplete." />;
  if (load.state === "idle" || (load.state === "loading" && !load.data)) {
    return (
      <div className="page waiting-room">
        <p className="loading" role="status">Loading the waiting room...</p>
      </div>
    );
  }
  // No drop for the target (null), or not this one: it ended, was called off, or never was.
  const gone = load.state === "loaded" ||
    (load.error instanceof ApiError && load.error.status === 404);
  if (!load.data || load.data.id !== id) {
    return (
      <NoDrop
        message={gone || load.data
          ? "There is no drop here: it ended or was called off."
          : "We could not load the waiting room. Please reload the page."}
      />
    );
  }
  return <WaitingRoom drop={load.data} />;
}

function WaitingRoom({ drop }: { drop: DropPublicView }) {
  const state = usePlace(drop.id);
  // The server's offset as the drop's answer arrived; each poll's answer measures it again.
  const [dropOffset, setDropOffset] = useState<number | null>(null);
  useEffect(() => setDropOffset(clockOffset(drop.serverTime, Date.now())), [drop.serverTime]);
  const offset = state.offsetMs ?? dropOffset;
  // What the server computes from its own time, so its HTML and the first render agree.
  const serverNow = Date.parse(drop.serverTime);
  const toOpening = useSecondsUntil(drop.opensAt, offset, secondsUntil(drop.opensAt, 0, serverNow));
  const toRoom = useSecondsUntil(
    roomOpensAt(drop.opensAt),
    offset,
    secondsUntil(roomOpensAt(drop.opensAt), 0, serverNow),
  );
  const phase = phaseNow(drop.phase, toRoom, toOpening);

  return (
    <article className="page waiting-room" aria-labelledby="drop-title">
      <p className="muted small">
        <Link to="/shop">Shop</Link> / Waiting room
      </p>
      <h1 id="drop-title">{drop.name}</h1>
      <p>
        {drop.units} made for this drop, at most {drop.perPersonLimit}{" "}
        per person. Once it is your turn you have {drop.holdMinutes} minutes to check out.
      </p>
      <p
        className="drop-countdown"
        role="timer"
        aria-label={toOpening > 0 ? `Opens in ${countdownWords(toOpening)}` : "The drop is open"}
      >
        {toOpening > 0
          ? (
            <>
              Opens in <span className="drop-countdown-clock">{formatCountdown(toOpening)}</span>
              <span className="muted small drop-opens-at">({utcText(drop.opensAt)})</span>
            </>
          )
          : phase === "soldOut"
          ? "The drop has ended."
          : "The drop is open."}
      </p>
      <section className="drop-place card" aria-labelledby="drop-place-title">
        <h2 id="drop-place-title">Your place</h2>
        <PlacePanel drop={drop} phase={phase} state={state} />
      </section>
    </article>
  );
}
