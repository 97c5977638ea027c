import { formatCents } from "../../shared/pricing.ts";

/** Dollars as the API sends them, formatted for shoppers. */
export function formatDollars(dollars: number): string {
  return formatCents(Math.round(dollars * 100));
}
