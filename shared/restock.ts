export interface RestockRow {
  kind: "switch" | "product" | "component";
  id: string;
  name: string;
  stock: number;
  unitsShort: number;
  peopleWaiting: number;
  daysOfRunway: number | null;
  score: number;
}
