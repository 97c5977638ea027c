/**
 * The owner's restock list (GET /api/admin/restock): what to print or buy next, ranked by the
 * demand the shop could not fill. Shared so the dashboard shows the server's own figures.
 */

/** One switch, product or other component on the restock list. */
export interface RestockRow {
  kind: "switch" | "product" | "component";
  /** The switch's or product's id, or the component's name (SMALL_BOX, ...). */
  id: string;
  name: string;
  /** Free units now (a product: how many can be made from the free components). */
  stock: number;
  /** What the waiting people would buy, plus the low-stock level, less the free stock (>= 0). */
  unitsShort: number;
  /** Confirmed back-in-stock sign-ups and shoppers left waiting when a drop sold out. */
  peopleWaiting: number;
  /** Free stock over the average daily units sold in the last 30 days; null when none sold. */
  daysOfRunway: number | null;
  /** The rank as one number: higher comes first (server/reports/restock_rules.ts). */
  score: number;
  /** Units the waiting people would buy (one per sign-up, the drop's limit per drop waiter). */
  unitsWanted: number;
  /** The owner's low-stock level (0 for a product, which has none of its own). */
  lowStockAt: number;
  soldLast30Days: number;
}

/** GET /api/admin/restock. */
export interface RestockAnswer {
  rows: RestockRow[];
}
