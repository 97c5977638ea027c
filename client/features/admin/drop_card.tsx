import { useEffect, useState } from "react";
import { toast } from "react-hot-toast";
import type { DropAdminView, DropListRow } from "../../../shared/drops.ts";
import { reportAdminError } from "./admin_api.ts";
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

/**
 * A drop's full view (the list's row until it arrives), asked at once and again every few
 * seconds while the drop can still change.
 */
function useLiveDrop(
  first: DropListRow,
): { row: DropAdminView | DropListRow; view: DropAdminView | null } {
  const [view, setView] = useState<DropAdminView | null>(null);
  const phase = view?.phase ?? first.phase;
  const live = dropIsLive(phase);
  useEffect(() => {
    let stopped = false;
    const ask = () =>
      fetchDrop(first.id).then((fresh) => {
        if (!stopped) setView(fresh);
      }, (err) => console.warn("The drop's live view could not be loaded", err));
    ask();
    const timer = live ? setInterval(ask, LIVE_POLL_MS) : undefined;
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [first, live]);
  return { row: view ?? first, view };
}

/**
 * One drop: what, when (the owner's time and UTC) and where it stands; while it runs the live
 * figures (waiting, admitted, holding, sold, refused by reason), after it the report (time to
 * sell out, the demand left unfilled).
 */
export function DropCard({ first, onChanged }: {
  first: DropListRow;
  onChanged: () => void;
}) {
  const { row: drop, view } = useLiveDrop(first);
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
      reportAdminError(err, "The drop could not be called off", [404, 409]);
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
          <dd>{view ? view.admitted : "..."}</dd>
        </div>
        <div>
          <dt>Waiting</dt>
          <dd data-testid="drop-waiting">{view ? view.waiting : "..."}</dd>
        </div>
        <div className="admin-drop-wide">
          <dt>Refused</dt>
          <dd>{view ? refusedText(view.refused ?? {}) : "..."}</dd>
        </div>
      </dl>
      {!live && view && drop.phase !== "cancelled" && (
        <section className="admin-drop-report" aria-label={`Report of the drop of ${drop.name}`}>
          <h4>Report</h4>
          <p className="small">
            Time to sell out:{" "}
            <strong>{sellOutText(view.secondsToSellOut)}</strong>. Unfilled demand:{" "}
            <strong>{view.unfilled.waiting}</strong>{" "}
            {view.unfilled.waiting === 1 ? "shopper" : "shoppers"} still waiting,{" "}
            <strong>{view.unfilled.signUps}</strong>{" "}
            {view.unfilled.signUps === 1 ? "sign-up" : "sign-ups"} to hear of a restock.
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
