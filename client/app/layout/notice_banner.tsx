import type { NoticeView } from "../../../shared/api_types.ts";
import { api } from "../api.ts";
import { useStore } from "../store/store.ts";

/** Loads the owner's notice (`GET /api/notice`) into the store; a failure keeps the last one. */
export async function loadNotice(): Promise<void> {
  try {
    useStore.getState().setNotice(await api<NoticeView>("/api/notice"));
  } catch (err) {
    console.warn("The site notice could not be loaded.", err);
  }
}

/** Whether a notice shows: active and with something to say. */
export function showsNotice(notice: NoticeView | null): notice is NoticeView {
  return Boolean(notice?.active && notice.text.trim());
}

/**
 * The red banner on every page, as the owner set it. Nothing at all (no reserved space) when
 * there is no notice; a returning visitor sees the last one at once, then the current one.
 */
export function NoticeBanner() {
  const notice = useStore((s) => s.notice);
  if (!showsNotice(notice)) return null;
  return <div className="banner" role="note">{notice.text}</div>;
}
