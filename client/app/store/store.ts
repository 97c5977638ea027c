import { create } from "zustand";
import { type CartSlice, createCartSlice, storedCart } from "./cart_slice.ts";
import { createSessionSlice, type SessionSlice, storedSession } from "./session_slice.ts";
import { createNoticeSlice, type NoticeSlice, storedNotice } from "./notice_slice.ts";
import { createThemeSlice, storedTheme, type ThemeSlice } from "./theme_slice.ts";

/** All client state. Read it with single-field selectors: `useStore((s) => s.cartId)`. */
export type StoreState = CartSlice & ThemeSlice & SessionSlice & NoticeSlice;

/**
 * The one client store, made of slices. It is created with what the server renders (no cart, no
 * session, the system theme); restoreStored then brings in what this browser kept. React hydrates
 * a server-rendered page with the state as created (zustand's server snapshot is the initial
 * state), so the first render matches the HTML, and re-renders with the stored state after.
 */
export const useStore = create<StoreState>()((...a) => ({
  ...createCartSlice(...a),
  ...createThemeSlice(...a),
  ...createSessionSlice(...a),
  ...createNoticeSlice(...a),
}));

/** Loads what the browser kept (local and session storage) into the store, once, at start. */
export function restoreStored(): void {
  useStore.setState({
    ...storedCart(),
    ...storedSession(),
    theme: storedTheme(),
    notice: storedNotice(),
  });
}
