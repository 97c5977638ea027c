/**
 * The shopper's places in drops' waiting rooms, kept in this browser per drop with the cart the
 * place is bound to: a reload or a new tab finds the same place, and polls present the same cart
 * (a guest's place belongs to its cart). The server still decides whose a place is.
 */
import type { DropTarget } from "../../../shared/drops.ts";
import { readLocal, writeLocal } from "../store/storage.ts";

/** A place in line as this browser keeps it. */
export interface KeptPlace {
  ticket: string;
  /** The cart the place was taken with (null when a signed-in shopper joined without one). */
  cartId: string | null;
  target: DropTarget;
}

const PREFIX = "switch-tester-shop:drop:";

/**
 * The kinds of target (shared/drops.ts DROP_TARGET_KINDS), written here as a type-checked copy:
 * that module carries the schemas, and product pages load no zod until a form asks for it.
 */
const KINDS: readonly DropTarget["kind"][] = ["switch", "pack", "item"];

/** The storage key of a drop's place. */
export function placeKey(dropId: string): string {
  return `${PREFIX}${dropId}`;
}

/** A stored value read back, or null when it is not a place (edited by hand, an older shape). */
export function parsePlace(text: string | null): KeptPlace | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<KeptPlace>;
    const target = value.target as Partial<DropTarget> | undefined;
    if (
      typeof value.ticket !== "string" || value.ticket === "" ||
      (value.cartId !== null && typeof value.cartId !== "string") ||
      !target || !KINDS.includes(target.kind as DropTarget["kind"]) ||
      !Number.isInteger(target.id)
    ) return null;
    return {
      ticket: value.ticket,
      cartId: value.cartId ?? null,
      target: { kind: target.kind!, id: target.id! },
    };
  } catch {
    return null;
  }
}

/** This browser's place in a drop, if any. */
export function keptPlace(dropId: string): KeptPlace | null {
  return parsePlace(readLocal(placeKey(dropId)));
}

/** Keeps a place (joining again answers the same ticket, so this only ever confirms it). */
export function keepPlace(dropId: string, place: KeptPlace): void {
  writeLocal(placeKey(dropId), JSON.stringify(place));
}

/** Forgets a place the shop no longer knows, or no longer lets this shopper use. */
export function forgetPlace(dropId: string): void {
  writeLocal(placeKey(dropId), null);
}

/** The drop's target as the waiting room's URL names it ("pack-3"), and back. */
export function targetParam(target: DropTarget): string {
  return `${target.kind}-${target.id}`;
}

export function parseTargetParam(value: string | null): DropTarget | null {
  const match = /^(switch|pack|item)-([1-9][0-9]{0,8})$/.exec(value ?? "");
  return match ? { kind: match[1] as DropTarget["kind"], id: Number(match[2]) } : null;
}

/** Where a drop's waiting room is. */
export function waitingRoomPath(dropId: string, target: DropTarget): string {
  return `/drops/${encodeURIComponent(dropId)}?target=${targetParam(target)}`;
}

/**
 * The tickets this browser holds for a switch, for the configurator's add (the server accepts
 * only an admitted one, and only for its holder).
 */
export function ticketForSwitch(switchIds: readonly number[]): string | null {
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith(PREFIX)) continue;
      const place = parsePlace(localStorage.getItem(key));
      if (place?.target.kind === "switch" && switchIds.includes(place.target.id)) {
        return place.ticket;
      }
    }
  } catch { /* storage unavailable: no place kept */ }
  return null;
}
