import type { StateCreator } from "zustand";
import { readLocal, writeLocal } from "./storage.ts";

/** Cart state kept on the client: the cart's id and the count the header's badge shows. */
export interface CartSlice {
  cartId: string | null;
  /** Sum of quantities (the badge). */
  badgeCount: number;
  setCartId: (id: string | null) => void;
  setBadgeCount: (badgeCount: number) => void;
}

/**
 * Cart slice of the store; the id persists in localStorage under `cartId` as the spec says. It
 * starts empty, as the server renders it; restoreStored (store.ts) then reads the browser's.
 */
export const createCartSlice: StateCreator<CartSlice, [], [], CartSlice> = (set) => ({
  cartId: null,
  badgeCount: 0,
  setCartId: (cartId) => {
    writeLocal("cartId", cartId);
    if (cartId === null) writeLocal(BADGE_KEY, null);
    set(cartId === null ? { cartId, badgeCount: 0 } : { cartId });
  },
  setBadgeCount: (badgeCount) => {
    writeLocal(BADGE_KEY, String(badgeCount));
    set({ badgeCount });
  },
});

/**
 * The count last shown, so a page load draws the badge at once (the server-rendered page has
 * none) instead of after the cart's request; that request then corrects it.
 */
const BADGE_KEY = "switch-tester-shop:badge";

/** The cart as this browser last knew it. */
export function storedCart(): Pick<CartSlice, "cartId" | "badgeCount"> {
  const cartId = readLocal("cartId");
  const count = Number(readLocal(BADGE_KEY));
  return { cartId, badgeCount: cartId && Number.isSafeInteger(count) && count > 0 ? count : 0 };
}
