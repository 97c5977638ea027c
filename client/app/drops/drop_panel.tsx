import { lazy, Suspense, useEffect, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import type { DropPublicView, DropTarget } from "../../../shared/drops.ts";
import { errorMessage } from "../api.ts";
import { NotifyMe, type NotifyTarget } from "../components/notify_me.tsx";
import {
  countdownWords,
  formatCountdown,
  roomOpensAt,
  secondsUntil,
  utcText,
} from "./drop_clock.ts";
import { joinDrop } from "./drop_api.ts";
import { type KeptPlace, keptPlace, waitingRoomPath } from "./drop_places.ts";
import { dropStillShown, phaseNow } from "./drop_phase.ts";
import { useDrop } from "./use_drop.ts";
import { useSecondsUntil } from "./use_seconds_until.ts";

/** The form and its email check load when first asked for, as back-in-stock's do. */
const DropNotifyForm = lazy(async () => ({
  default: (await import("./drop_notify_form.tsx")).DropNotifyForm,
}));

/** The back-in-stock sign-up a drop's target takes. */
export function notifyTargetOf(target: DropTarget): NotifyTarget {
  return target.kind === "switch" ? { switchId: target.id } : { productId: target.id };
}

/**
 * A product's drop on its page: what it is, the countdown to the opening (on the server's clock),
 * "Email me when it opens" before it, the way into the waiting room from two minutes before, and
 * the back-in-stock sign-up once it sold out. Nothing when the product has no drop.
 */
export function DropPanel({ target, name, known, named = false }: {
  target: DropTarget;
  name: string;
  /** The drop already read (the configurators read every switch's at once). */
  known?: DropPublicView;
  /** Whether the heading names the drop: a page with several panels tells them apart by it. */
  named?: boolean;
}) {
  const heard = useDrop(target, known);
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [joining, setJoining] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const drop = heard?.drop ?? null;
  const offset = heard?.offsetMs ?? null;
  // What the server computes from its own time, so its HTML and the first render agree.
  const serverNow = drop ? Date.parse(drop.serverTime) : 0;
  const roomAt = drop ? roomOpensAt(drop.opensAt) : null;
  const toRoom = useSecondsUntil(roomAt, offset, roomAt ? secondsUntil(roomAt, 0, serverNow) : 1);
  const toOpening = useSecondsUntil(
    drop?.opensAt ?? null,
    offset,
    drop ? secondsUntil(drop.opensAt, 0, serverNow) : 1,
  );
  // What lives in this browser (the place, the local time) is read once the page runs here.
  const [local, setLocal] = useState<{ place: KeptPlace | null; opens: string } | null>(null);
  const dropId = drop?.id;
  const opensAt = drop?.opensAt;
  useEffect(() => {
    if (dropId && opensAt) {
      setLocal({ place: keptPlace(dropId), opens: new Date(opensAt).toLocaleString() });
    }
  }, [dropId, opensAt]);
  if (!drop || !dropStillShown(drop)) return null;
  const phase = phaseNow(drop.phase, toRoom, toOpening);
  const place = local?.place ?? null;
  const headingId = `drop-${drop.id}-title`;

  async function join() {
    if (!drop || joining) return;
    setJoining(true);
    setError(null);
    try {
      await joinDrop(drop.id, target);
      navigate(waitingRoomPath(drop.id, target));
    } catch (err) {
      setError(errorMessage(err, "We could not reach the waiting room. Please try again."));
      setJoining(false);
    }
  }

  return (
    <section className="drop-panel card" aria-labelledby={headingId} data-testid="drop-panel">
      <h2 id={headingId}>
        {phase === "soldOut" ? "This drop sold out" : "Limited drop"}
        {named ? `: ${name}` : ""}
      </h2>
      <p className="small">
        {drop.units} made for this drop. At most {drop.perPersonLimit}{" "}
        per person; once it is your turn you have {drop.holdMinutes} minutes to check out.
        {drop.signedInOnly ? " For signed-in shoppers only." : ""}
      </p>
      {phase !== "soldOut" && (
        <p className="small">
          Opens {local ? `${local.opens} (${utcText(drop.opensAt)})` : utcText(drop.opensAt)}.
        </p>
      )}
      {toOpening > 0 && phase !== "soldOut" && (
        <p
          className="drop-countdown"
          role="timer"
          aria-label={`Opens in ${countdownWords(toOpening)}`}
        >
          Opens in <span className="drop-countdown-clock">{formatCountdown(toOpening)}</span>
        </p>
      )}
      {phase === "scheduled" && (asking
        ? (
          <Suspense fallback={<p className="small" role="status">Loading...</p>}>
            <DropNotifyForm dropId={drop.id} name={name} />
          </Suspense>
        )
        : (
          <button type="button" className="button secondary" onClick={() => setAsking(true)}>
            Email me when it opens<span className="visually-hidden">: {name}</span>
          </button>
        ))}
      {(phase === "room" || phase === "open") && (place
        ? (
          <Link className="button" to={waitingRoomPath(drop.id, target)}>
            Back to your place in line
          </Link>
        )
        : (
          <button type="button" className="button" onClick={join} aria-disabled={joining}>
            {joining ? "Joining..." : "Join the waiting room"}
          </button>
        ))}
      {error && <p className="error-text" role="alert">{error}</p>}
      {phase === "soldOut" && <NotifyMe target={notifyTargetOf(target)} name={name} />}
    </section>
  );
}
