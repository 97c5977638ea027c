/**
 * The Catalogue tab's conversions between what the owner types and what the API takes: money
 * in dollars with two decimals, optional counts, dates in the owner's local time, and only the
 * fields that changed in an edit. Kept apart from the forms so they can be tested on their own.
 */
import { formatDollars } from "../../app/money.ts";
import type { AdminSwitchView, CatalogEditView } from "../../../shared/api_types.ts";

/** Dollars as a money field shows them: '12.50', '-0.25'. */
export function moneyText(dollars: number | null | undefined): string {
  return typeof dollars === "number" ? dollars.toFixed(2) : "";
}

/**
 * A typed amount for the API: blank is left out (undefined), a leading '$' and spaces are
 * ignored, anything else is sent as the number it reads as (NaN when it reads as none), so the
 * shared schema words the message.
 */
export function parseMoney(text: string): number | undefined {
  const trimmed = text.trim().replace(/^\$\s*/, "").replace(/^-\s*\$\s*/, "-");
  return trimmed === "" ? undefined : Number(trimmed);
}

/** A typed count (stock, uses): blank is left out, anything else is sent as the number it reads. */
export function parseCount(text: string): number | undefined {
  const trimmed = text.trim();
  return trimmed === "" ? undefined : Number(trimmed);
}

/** Optional text for the API: blank is left out. */
export function optionalText(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** Two digits. */
function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** An ISO 8601 instant as a datetime-local field shows it, in the owner's time zone. */
export function localDateTimeText(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${
    pad(d.getMinutes())
  }`;
}

/**
 * A datetime-local value (the owner's time zone) as an ISO 8601 instant; blank is null (no
 * limit), and text that is no date is sent as typed for the schema to refuse.
 */
export function isoFromLocal(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const d = new Date(trimmed);
  return Number.isNaN(d.getTime()) ? trimmed : d.toISOString();
}

/**
 * The fields of `next` whose values differ from `current` (arrays compare by content), for a
 * PATCH that sends only what the owner changed. Undefined values in `next` are left out.
 */
export function changedFields(
  current: Readonly<Record<string, unknown>>,
  next: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    if (value === undefined) continue;
    if (JSON.stringify(value) !== JSON.stringify(current[key] ?? null)) changed[key] = value;
  }
  return changed;
}

/** Readable names of the fields the history lists. */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  name: "Name",
  brand: "Brand",
  type: "Type",
  force: "Force",
  extraPrice: "Extra price",
  extraPriceCents: "Extra price",
  referralLink: "Referral link",
  stock: "Stock",
  retired: "Retired",
  title: "Title",
  description: "Description",
  price: "Price",
  priceCents: "Price",
  switchIds: "Switches",
  onSale: "On sale",
  code: "Code",
  percentOff: "Percent off",
  amountOff: "Amount off",
  amountOffCents: "Amount off",
  startsAt: "Starts",
  endsAt: "Ends",
  maxUses: "Max uses",
  maxUsesPerEmail: "Max uses per email",
  minSubtotal: "Min subtotal",
  minSubtotalCents: "Min subtotal",
  active: "Active",
  text: "Text",
  image: "Image",
};

/** A field's name as the history shows it ('extraPriceCents' reads 'Extra price'). */
export function fieldName(field: string): string {
  return FIELD_NAMES[field] ?? field;
}

/** Whether a field holds money: in cents when it says so, else in dollars. */
function moneyKind(field: string): "cents" | "dollars" | null {
  if (/Cents$/.test(field)) return "cents";
  return /^(extraPrice|price|amountOff|minSubtotal)$/.test(field) ? "dollars" : null;
}

/** One old or new value as the history shows it: money as $1.50, yes/no, lists joined, '—'. */
export function historyValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  const money = moneyKind(field);
  if (money && typeof value === "number") {
    return formatDollars(money === "cents" ? value / 100 : value);
  }
  if (field === "percentOff" && typeof value === "number") return `${value}%`;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) return value.join(", ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Which switches the table lists. */
export type StatusFilter = "active" | "retired" | "all";

/** The switches the filters let through, in the list's order. */
export function filterCatalogSwitches(
  switches: readonly AdminSwitchView[],
  { query, type, status }: { query: string; type: string; status: StatusFilter },
): AdminSwitchView[] {
  const q = query.trim().toLowerCase();
  return switches.filter((s) =>
    (status === "all" || s.retired === (status === "retired")) &&
    (type === "" || s.type.toLowerCase().split(/\s+/).includes(type)) &&
    (q === "" || `${s.brand} ${s.name}`.toLowerCase().includes(q))
  );
}

/** Readable names of what was edited. */
const KIND_NAMES: Readonly<Record<string, string>> = {
  switch: "Switch",
  pack: "Pack",
  item: "Item",
  promo: "Promo code",
  notice: "Notice",
  image: "Image",
};

/** One line of the history table: one field's change of one edit. */
interface HistoryRow {
  key: string;
  at: string;
  what: string;
  action: string;
  field: string;
  from: string;
  to: string;
}

/** The edits as table lines, newest first: one line per changed field. */
export function historyRows(edits: readonly CatalogEditView[]): HistoryRow[] {
  return [...edits]
    .sort((a, b) => new Date(b.at).getTime() - new Date(a.at).getTime())
    .flatMap((edit) => {
      const what = edit.kind === "notice"
        ? "Notice"
        : `${KIND_NAMES[edit.kind] ?? edit.kind} ${edit.label ?? edit.target}`;
      const changes = edit.changes.length > 0
        ? edit.changes
        : [{ field: "", from: null, to: null }];
      return changes.map((change, i) => {
        const swap = change.field === "switchIds" ? switchSwap(change, edit.names ?? {}) : null;
        return {
          key: `${edit.id}-${i}`,
          at: new Date(edit.at).toLocaleString(),
          what,
          action: edit.action,
          field: change.field ? fieldName(change.field) : "—",
          from: swap?.from ?? (change.field ? historyValue(change.field, change.from) : ""),
          to: swap?.to ?? (change.field ? historyValue(change.field, change.to) : ""),
        };
      });
    });
}

/**
 * A pack's switch change by name: only the switches taken out and put in ("Gateron Oil King" →
 * "Akko Cream Yellow"), since ten ids either side hide the one that changed; both lists whole
 * when only their order changed. Null when the values are not lists of ids.
 */
function switchSwap(
  change: { from: unknown; to: unknown },
  names: Readonly<Record<string, string>>,
): { from: string; to: string } | null {
  const { from, to } = change;
  if (!Array.isArray(from) || !Array.isArray(to)) return null;
  const name = (id: unknown) => names[String(id)] ?? `switch #${id}`;
  const out = from.filter((id) => !to.includes(id));
  const into = to.filter((id) => !from.includes(id));
  const [shownFrom, shownTo] = out.length + into.length === 0 ? [from, to] : [out, into];
  return {
    from: shownFrom.length > 0 ? shownFrom.map(name).join(", ") : "—",
    to: shownTo.length > 0 ? shownTo.map(name).join(", ") : "—",
  };
}
