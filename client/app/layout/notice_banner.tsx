import type { NoticeView } from "../../../shared/api_types.ts";
import { api } from "../api.ts";
import { useStore } from "../store/store.ts";
import { usePageData } from "../page_data.ts";

/** Where the notice comes from; server-rendered pages embed its answer. */
export const NOTICE_PATH = "/api/notice";

/** Loads the owner's notice (`GET /api/notice`) into the store; a failure keeps the last one. */
export async function loadNotice(): Promise<void> {
  try {
    useStore.getState().setNotice(await api<NoticeView>(NOTICE_PATH));
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
  // A server-rendered page came with the current notice; the store has it too once started.
  const served = usePageData(NOTICE_PATH) as NoticeView | undefined;
  const stored = useStore((s) => s.notice);
  const notice = stored ?? served ?? null;
  if (!showsNotice(notice)) return null;
  // A labelled region: every part of the page sits in a landmark, so a screen reader's list of
  // landmarks reaches the notice too.
  return (
    <section aria-label="Shop notice">
      <div className="banner" role="note">{notice.text}</div>
    </section>
  );
}
