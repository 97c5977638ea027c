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

/** Cart slice of the store; the id persists in localStorage under `cartId` as the spec says. */
export const createCartSlice: StateCreator<CartSlice, [], [], CartSlice> = (set) => ({
  cartId: readLocal("cartId"),
  badgeCount: 0,
  setCartId: (cartId) => {
    writeLocal("cartId", cartId);
    set(cartId === null ? { cartId, badgeCount: 0 } : { cartId });
  },
  setBadgeCount: (badgeCount) => set({ badgeCount }),
});
