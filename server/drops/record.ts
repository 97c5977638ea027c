/**
 * A drop: a limited run of one target (a switch, a pack or an item) that goes on sale at a set
 * time, through a waiting room, with a limit per person. The records and the pure rules every
 * part of the drop reads: what a cart line takes of a drop, who a "person" is, when a shopper
 * counts as arriving in the first window, when a drop runs.
 */
import { type Bom, switchKey } from "../../shared/bom.ts";
import type { Address } from "../../shared/api_types.ts";
import type { DropTarget } from "../../shared/drops.ts";

/** How long before the opening the waiting room opens, and the first window's two edges. */
export const ROOM_OPENS_BEFORE_MS = 2 * 60_000;
/** Arrivals from the room's opening until this long after the opening are drawn in random order. */
export const FIRST_WINDOW_AFTER_MS = 30_000;
/** A drop's hold when the owner names none (minutes). */
export const DEFAULT_DROP_HOLD_MINUTES = 10;

/** A scheduled drop, as stored. */
export interface DropRecord {
  id: string;
  target: DropTarget;
  /** The target's name when scheduled (a switch's brand and name, a pack's title), for views. */
  name: string;
  /**
   * The catalogue products whose lines count toward the drop: a pack's two products (with and
   * without keycaps), an item's one; empty for a switch (counted by the switch in each line).
   */
  productIds: number[];
  units: number;
  opensAt: number;
  perPersonLimit: number;
  /** Minutes a drop checkout holds its units, and an admitted shopper has to start one. */
  holdMinutes: number;
  signedInOnly: boolean;
  createdAt: number;
  /** The owner called it off (before or during): the target sells as usual again. */
  cancelledAt: number | null;
  /** When the last unit was sold (every unit paid for), for the report's time to sell out. */
  soldOutAt: number | null;
}

/** The drop's units in unpaid checkouts and sold, kept in the checkouts' own writes. */
export interface DropLedger {
  holding: number;
  sold: number;
}

/** A place in a drop's waiting room. */
export interface TicketRecord {
  /** Random, unguessable (128 bits); what the shopper's page holds. */
  ticket: string;
  dropId: string;
  /** Whose place it is: `user:<id>` for a signed-in shopper, `cart:<id>` for a guest's cart. */
  holder: string;
  /** The client network it joined from (server/net/client_network.ts). */
  network: string;
  joinedAt: number;
  /** Joined in the first window: ranked by `lottery` among the others who did. */
  early: boolean;
  /** Random, drawn at joining and never shown: the order of the first window's arrivals. */
  lottery: string;
  /** When the shopper was let in to check out, or null while waiting. */
  admittedAt: number | null;
  /** Drop units this place has held or bought (its checkouts' writes add to it). */
  units: number;
}

/** The target's key in the drop index (keys.dropByTarget): `switch:7`, `pack:3`, `item:51`. */
export function targetKey(target: DropTarget): string {
  return `${target.kind}:${target.id}`;
}

/**
 * The units one cart line (or order line) takes of a drop: for a switch, that switch in the
 * line's bill of materials (a tester or a pack that contains it); for a pack or an item, the
 * line's quantity when it is one of the drop's products.
 */
export function unitsToward(
  drop: Pick<DropRecord, "target" | "productIds">,
  line: { productId: number | null; bom: Bom; quantity: number },
): number {
  if (drop.target.kind === "switch") {
    return (line.bom.get(switchKey(drop.target.id)) ?? 0) * line.quantity;
  }
  return line.productId !== null && drop.productIds.includes(line.productId) ? line.quantity : 0;
}

/** Whether a drop is over: called off, or every unit sold. */
export function isOver(drop: DropRecord, ledger: DropLedger): boolean {
  return drop.cancelledAt !== null || ledger.sold >= drop.units;
}

/** Whether a shopper joining at `at` is in the first window (drawn in random order). */
export function inFirstWindow(drop: DropRecord, at: number): boolean {
  return at <= drop.opensAt + FIRST_WINDOW_AFTER_MS;
}

/** Whether the waiting room takes places at `at` (from 2 minutes before the opening). */
export function roomIsOpen(drop: DropRecord, at: number): boolean {
  return at >= drop.opensAt - ROOM_OPENS_BEFORE_MS;
}

/** Who a person is for the per-person limit: each of these is counted on its own. */
export interface Person {
  userId: string | null;
  email: string | null;
  address: Pick<Address, "street" | "apartment" | "zipCode" | "country"> | null;
  network: string;
}

/**
 * The keys a person's units are counted under (keys.dropPerson): their account, their mailbox,
 * their delivery address and their client network, so a second account, email or card at the
 * same door gets nothing extra. A purchase must fit under the limit on every one of them.
 */
export function personKeys(person: Person, mailbox: (email: string) => string): string[] {
  const found = [`network:${person.network}`];
  if (person.userId) found.push(`account:${person.userId}`);
  if (person.email) found.push(`email:${capped(mailbox(person.email))}`);
  if (person.address) found.push(`address:${capped(addressKey(person.address))}`);
  return found;
}

/**
 * The most characters of an email or address a person key keeps: a KV key holds at most 2 KB
 * (400 characters of up to 4 bytes fit with the drop's id), and a payment provider's page may
 * collect lines far longer than the shop's own forms allow (200). Two equal this far are one
 * person.
 */
export const PERSON_KEY_CHARS = 400;

function capped(text: string): string {
  const chars = [...text];
  return chars.length <= PERSON_KEY_CHARS ? text : chars.slice(0, PERSON_KEY_CHARS).join("");
}

/**
 * One spelling per delivery address: letters and digits of the postal code and of the street with
 * its apartment, with the country ("12 Main St." and "12 main st" are one door; two flats of one
 * building are two). The street and the apartment are read as one text, since the flat number
 * moved into the street line reaches the same door; compatibility forms (full-width digits),
 * accents and the Cyrillic and Greek letters that look Latin are folded, since a courier reads
 * them alike; a US ZIP+4 is its ZIP (any four digits reach the same door).
 */
export function addressKey(
  address: Pick<Address, "street" | "apartment" | "zipCode" | "country">,
): string {
  const country = address.country.toUpperCase();
  const zip = foldText(address.zipCode);
  return [
    country,
    country === "US" ? zip.slice(0, 5) : zip,
    foldText(`${address.street} ${address.apartment}`),
  ].join("|");
}

/** Letters that look like a plain Latin letter (lower case; the dotless i), and the letter. */
const LOOKALIKES_FROM = "авекмнорстухіјѕԁһӏԛԝαβεηικμνορτυχζı";
const LOOKALIKES_TO = "abekmhopctyxijsdhlqwabenikmvoptuxzi";

/** Words of an address line spelled out or shortened: one spelling each ("" drops a filler). */
const ADDRESS_WORDS = new Map<string, string>([
  ["street", "st"],
  ["avenue", "ave"],
  ["av", "ave"],
  ["road", "rd"],
  ["boulevard", "blvd"],
  ["drive", "dr"],
  ["lane", "ln"],
  ["court", "ct"],
  ["place", "pl"],
  ["terrace", "ter"],
  ["highway", "hwy"],
  ["parkway", "pkwy"],
  ["square", "sq"],
  ["north", "n"],
  ["south", "s"],
  ["east", "e"],
  ["west", "w"],
  ["apartment", ""],
  ["apt", ""],
  ["unit", ""],
  ["suite", ""],
  ["ste", ""],
  ["flat", ""],
  ["no", ""],
  ["number", ""],
  ["nr", ""],
]);

/**
 * Text as a courier reads it: compatibility forms, accents, case, lookalikes, punctuation and the
 * usual shortenings and fillers ("Apartment", "Apt", "#") folded, word by word.
 */
function foldText(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^a-z0-9]/gu, (ch) => LOOKALIKES_TO[LOOKALIKES_FROM.indexOf(ch)] ?? ch)
    .split(/[^\p{L}\p{N}]+/u)
    .map((word) => ADDRESS_WORDS.get(word) ?? word)
    .join("");
}

/**
 * The order of the waiting room: the first window's arrivals by their lottery, then later
 * arrivals by arrival time (ticket as the tie-break, so every isolate sorts alike).
 */
export function compareTickets(a: TicketRecord, b: TicketRecord): number {
  if (a.early !== b.early) return a.early ? -1 : 1;
  if (a.early) return a.lottery < b.lottery ? -1 : a.lottery > b.lottery ? 1 : 0;
  return a.joinedAt - b.joinedAt || (a.ticket < b.ticket ? -1 : a.ticket > b.ticket ? 1 : 0);
}
