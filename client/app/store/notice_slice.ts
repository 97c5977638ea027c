import type { StateCreator } from "zustand";
import type { NoticeView } from "../../../shared/api_types.ts";
import { readLocal, writeLocal } from "./storage.ts";

/**
 * The site notice (the red banner) as last seen. Kept in localStorage so a returning visitor's
 * first paint already has the banner in place, rather than the page moving down when it arrives.
 */
export interface NoticeSlice {
  notice: NoticeView | null;
  setNotice: (notice: NoticeView) => void;
}

const NOTICE_KEY = "switch-tester-shop:notice";

/** The notice this browser saw last. */
export function storedNotice(): NoticeView | null {
  try {
    const value = JSON.parse(readLocal(NOTICE_KEY) ?? "null");
    return typeof value?.text === "string" && typeof value?.active === "boolean"
      ? { text: value.text, active: value.active }
      : null;
  } catch {
    return null;
  }
}

/** Notice slice of the store. */
export const createNoticeSlice: StateCreator<NoticeSlice, [], [], NoticeSlice> = (set) => ({
  notice: null,
  setNotice: (notice) => {
    writeLocal(NOTICE_KEY, JSON.stringify({ text: notice.text, active: notice.active }));
    set({ notice: { text: notice.text, active: notice.active } });
  },
});
