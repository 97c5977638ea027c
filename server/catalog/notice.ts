/**
 * The site notice: the red banner on every page, which the owner sets from the dashboard. An
 * edit is recorded in the catalogue's history in the write that makes it; one made on an older
 * copy than the stored one is refused rather than silently overwriting it.
 */
import type { AdminNoticeView, NoticeView } from "../../shared/api_types.ts";
import type { Clock } from "../clock.ts";
import { Conflict } from "../errors.ts";
import { changesBetween, recordEditInto } from "./history.ts";
import type { Actor } from "../audit/actor.ts";
import { getNoticeEntry, type NoticeRecord, writeNoticeInto } from "./notice_store.ts";

/** What shoppers see: no notice stored shows no banner. */
export async function getNotice(kv: Deno.Kv): Promise<NoticeView> {
  const notice = (await getNoticeEntry(kv)).value;
  return { text: notice?.text ?? "", active: notice?.active ?? false };
}

/** The notice with what an edit needs: when it changed and its version. */
export async function getAdminNotice(kv: Deno.Kv): Promise<AdminNoticeView> {
  return adminView(await getNoticeEntry(kv));
}

function adminView(entry: Deno.KvEntryMaybe<NoticeRecord>): AdminNoticeView {
  return {
    text: entry.value?.text ?? "",
    active: entry.value?.active ?? false,
    updatedAt: entry.value ? new Date(entry.value.updatedAt).toISOString() : null,
    version: entry.versionstamp,
  };
}

/** Sets the notice; with `version` (as read), an edit of an older copy is a 409. */
export async function setNotice(
  kv: Deno.Kv,
  clock: Clock,
  body: { text: string; active: boolean; version?: string },
  actor: Actor,
): Promise<AdminNoticeView> {
  const entry = await getNoticeEntry(kv);
  if (body.version !== undefined && body.version !== entry.versionstamp) throw stale();
  const before = entry.value;
  const now = clock.now();
  const next: NoticeRecord = { text: body.text, active: body.active, updatedAt: now };
  const changes = changesBetween(before, next, ["text", "active"]);
  if (changes.length === 0) return adminView(entry);
  const op = kv.atomic();
  writeNoticeInto(op, entry, next);
  recordEditInto(op, actor, {
    at: now,
    kind: "notice",
    target: "notice",
    action: "updated",
    changes,
  });
  if (!(await op.commit()).ok) throw stale();
  return await getAdminNotice(kv);
}

function stale(): Conflict {
  return new Conflict(
    "The notice was changed by someone else since you loaded it. Reload it to see the change, then make yours again.",
  );
}
