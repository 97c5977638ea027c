import type { SwitchChoice } from "./switch_choice.ts";
import { moveFocusWhenLost } from "../../app/move_focus.ts";

/**
 * 'Selected n / limit' and the chosen switches, each removable here: a pick hidden by the current
 * filters can still be dropped, which matters after the shopper lowers the switch count.
 */
export function SelectionSummary({ chosen, limit, onRemove }: {
  chosen: SwitchChoice[];
  limit: number;
  onRemove: (id: number) => void;
}) {
  const over = chosen.length > limit;
  return (
    <div className="selection-summary">
      <h2
        className={`selection-count${over ? " error-text" : ""}`}
        data-testid="selection-count"
        aria-live="polite"
      >
        Selected {chosen.length} / {limit}
      </h2>
      {over && (
        <p className="error-text small">
          Remove {chosen.length - limit} {chosen.length - limit === 1 ? "switch" : "switches"}{" "}
          or choose a larger tester.
        </p>
      )}
      {chosen.length > 0 && (
        <ul className="chosen-list" aria-label="Your switches">
          {chosen.map((sw) => (
            <li key={sw.id}>
              <span>{sw.brand} {sw.name}</span>
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove ${sw.brand} ${sw.name}`}
                onClick={(event) => {
                  // The chip goes away: the focus moves to the next chip's button (or the one
                  // before it), never to the page.
                  const item = event.currentTarget.closest("li");
                  const next = (item?.nextElementSibling ?? item?.previousElementSibling)
                    ?.querySelector("button");
                  onRemove(sw.id);
                  moveFocusWhenLost(() => [next ?? null]);
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
