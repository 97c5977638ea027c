import { useEffect, useState } from "react";
import { toast } from "react-hot-toast";
import type { DropAdminView } from "../../../shared/drops.ts";
import { adminErrorMessage } from "./admin_api.ts";
import { dropIsLive, refusedText, sellOutText, utcClock } from "./drop_format.ts";
import { cancelDrop, fetchDrop } from "./drops_api.ts";

/** How often the live view asks while the drop runs. */
const LIVE_POLL_MS = 4_000;

const PHASES: Record<DropAdminView["phase"], string> = {
  scheduled: "Scheduled",
  room: "Waiting room open",
  open: "Selling",
  soldOut: "Sold out",
  cancelled: "Called off",
};

/** A drop's figures, asked again every few seconds while it can still change. */
function useLiveDrop(first: DropAdminView): DropAdminView {
  const [drop, setDrop] = useState(first);
  const live = dropIsLive(drop.phase);
  useEffect(() => setDrop(first), [first]);
  useEffect(() => {
    if (!live) return;
    let stopped = false;
    const timer = setInterval(() => {
      fetchDrop(first.id).then((fresh) => {
        if (!stopped) setDrop(fresh);
      }, (err) => console.warn("The drop's live view could not be loaded", err));
    }, LIVE_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [first.id, live]);
  return drop;
}

/**
 * One drop: what, when (the owner's time and UTC) and where it stands; while it runs the live
 * figures (waiting, admitted, holding, sold, refused by reason), after it the report (time to
 * sell out, the demand left unfilled).
 */
export function DropCard({ first, onChanged }: {
  first: DropAdminView;
  onChanged: () => void;
}) {
  const drop = useLiveDrop(first);
  const [busy, setBusy] = useState(false);
  const live = dropIsLive(drop.phase);
  const headingId = `drop-admin-${drop.id}`;

  async function callOff() {
    if (busy || !confirm(`Call off the drop of ${drop.name}? It then sells as usual.`)) return;
    setBusy(true);
    try {
      await cancelDrop(drop.id);
      toast.success(`The drop of ${drop.name} is called off`);
      onChanged();
    } catch (err) {
      toast.error(adminErrorMessage(err, "The drop could not be called off", [404, 409]));
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className="card admin-drop" aria-labelledby={headingId} data-drop={drop.id}>
      <div className="admin-section-head">
        <h3 id={headingId}>{drop.name}</h3>
        <span className={`admin-status ${live ? "status-on-sale" : "status-retired"}`}>
          {PHASES[drop.phase]}
        </span>
      </div>
      <p className="small">
        Opens {new Date(drop.opensAt).toLocaleString()} ({utcClock(drop.opensAt)}) ·{" "}
        {drop.perPersonLimit} per person · {drop.holdMinutes} minutes to check out
        {drop.signedInOnly ? " · signed-in shoppers only" : ""}
      </p>
      <dl className="admin-drop-figures" aria-live="off">
        <div>
          <dt>Sold</dt>
          <dd data-testid="drop-sold">{drop.sold} of {drop.units}</dd>
        </div>
        <div>
          <dt>Holding</dt>
          <dd>{drop.holding}</dd>
        </div>
        <div>
          <dt>Admitted</dt>
          <dd>{drop.admitted}</dd>
        </div>
        <div>
          <dt>Waiting</dt>
          <dd data-testid="drop-waiting">{drop.waiting}</dd>
        </div>
        <div className="admin-drop-wide">
          <dt>Refused</dt>
          <dd>{refusedText(drop.refused)}</dd>
        </div>
      </dl>
      {!live && (
        <section className="admin-drop-report" aria-label={`Report of the drop of ${drop.name}`}>
          <h4>Report</h4>
          <p className="small">
            Time to sell out:{" "}
            <strong>{sellOutText(drop.secondsToSellOut)}</strong>. Unfilled demand:{" "}
            <strong>{drop.unfilled.waiting}</strong>{" "}
            {drop.unfilled.waiting === 1 ? "shopper" : "shoppers"} still waiting,{" "}
            <strong>{drop.unfilled.signUps}</strong> back-in-stock{" "}
            {drop.unfilled.signUps === 1 ? "sign-up" : "sign-ups"}.
          </p>
        </section>
      )}
      {live && (
        <div className="row">
          <button
            type="button"
            className="button secondary small-button"
            onClick={callOff}
            aria-disabled={busy}
          >
            Call off<span className="visually-hidden">the drop of {drop.name}</span>
          </button>
        </div>
      )}
    </article>
  );
}
