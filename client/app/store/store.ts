import { create } from "zustand";
import { type CartSlice, createCartSlice } from "./cart_slice.ts";
import { createSessionSlice, type SessionSlice } from "./session_slice.ts";
import { createNoticeSlice, type NoticeSlice } from "./notice_slice.ts";
import { createThemeSlice, type ThemeSlice } from "./theme_slice.ts";

/** All client state. Read it with single-field selectors: `useStore((s) => s.cartId)`. */
export type StoreState = CartSlice & ThemeSlice & SessionSlice & NoticeSlice;

/** The one client store, made of slices. */
export const useStore = create<StoreState>()((...a) => ({
  ...createCartSlice(...a),
  ...createThemeSlice(...a),
  ...createSessionSlice(...a),
  ...createNoticeSlice(...a),
}));
