import type { SwitchChoice } from "./switch_choice.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { switchStockNote } from "../../../shared/build_rules.ts";

/** '+$0.20' for a premium switch, '-$0.10' for a cheaper one, nothing at the base price. */
function extraLabel(cents: number): string | null {
  if (cents === 0) return null;
  return cents > 0 ? `+${formatCents(cents)}` : formatCents(cents);
}

/**
 * One switch as a toggle button: click, Enter or Space picks it, aria-pressed tells the state.
 * An unavailable switch stays focusable (aria-disabled rather than disabled) so keyboard and
 * screen reader users still learn it exists and is out of stock.
 */
export function SwitchCard({ sw, selected, onToggle }: {
  sw: SwitchChoice;
  selected: boolean;
  onToggle: (sw: SwitchChoice) => void;
}) {
  const extra = extraLabel(sw.extraPriceCents);
  const drop = sw.drop;
  return (
    <button
      type="button"
      className="switch-card"
      data-testid={`switch-${sw.id}`}
      aria-pressed={selected}
      aria-disabled={!sw.available || undefined}
      data-drop={drop ? drop.phase : undefined}
      // The selection refuses unavailable switches, so the card need not check again.
      onClick={() => onToggle(sw)}
    >
      <span className="switch-card-image">
        <img
          src={sw.imageUrl}
          // The card's own text names the switch (and is what a screen reader reads).
          alt=""
          width="120"
          height="120"
          loading="lazy"
        />
        {selected && <span className="switch-card-check" aria-hidden="true">✓</span>}
      </span>
      <span className="switch-card-name">{sw.name}</span>
      <span className="switch-card-brand muted">{sw.brand}</span>
      <span className="switch-card-meta">
        <span className="switch-card-type">{sw.type}</span>
        <span>{sw.force}</span>
      </span>
      {extra && (
        <span className={`switch-card-extra ${sw.extraPriceCents > 0 ? "premium" : "discount"}`}>
          {extra}
        </span>
      )}
      {/* In the button's text, so its accessible name says the drop too. */}
      {drop && <span className="switch-card-drop">{drop.note}</span>}
      {drop?.locked
        ? null
        : !sw.available
        ? <span className="switch-card-stock">Out of stock</span>
        : sw.left !== undefined && switchStockNote(sw.left) && (
          <span className="switch-card-few">{switchStockNote(sw.left)}</span>
        )}
    </button>
  );
}
