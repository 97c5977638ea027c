import { formatCents, premiumCents } from "../../../shared/pricing.ts";
import { useSpokenChange } from "../../app/announcer/use_spoken_change.ts";

/** One line of a price summary. */
export interface PriceLine {
  label: string;
  cents: number;
}

/** The premium switches line, only when the chosen switches cost extra. */
export function premiumLines(extras: number[]): PriceLine[] {
  const premium = premiumCents(extras);
  return premium === 0 ? [] : [{ label: "Premium switches", cents: premium }];
}

/** The price breakdown and total; the lines come from shared/pricing.ts, as the server's do. */
export function PriceSummary({ lines, totalCents }: { lines: PriceLine[]; totalCents: number }) {
  // A size, keycaps or premium switch changes the total: said once it settles.
  useSpokenChange(`Total ${formatCents(totalCents)}`);
  return (
    <dl className="price-summary" data-testid="price-summary">
      {lines.map((line) => (
        <div key={line.label} className="price-line">
          <dt>{line.label}</dt>
          <dd>{formatCents(line.cents)}</dd>
        </div>
      ))}
      <div className="price-line total">
        <dt>Total</dt>
        <dd data-testid="price-total">{formatCents(totalCents)}</dd>
      </div>
    </dl>
  );
}
