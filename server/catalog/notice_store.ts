/** The red banner on every page, as the owner last set it. */
import { setMissing } from "../kv/kv_util.ts";
import { keys } from "../kv/keys.ts";

/** The notice as stored. */
export interface NoticeRecord {
  text: string;
  active: boolean;
  updatedAt: number;
}

/** The banner the shop launched with: the first boot's notice, until the owner edits it. */
export const SEEDED_NOTICE_TEXT =
  "New orders ship on September 26th. Use code LATEDELIVERY for 16% off.";

/** Writes the launch banner where no notice is stored. */
export async function seedNotice(kv: Deno.Kv, now: number, newStore = false): Promise<number> {
  const notice: NoticeRecord = { text: SEEDED_NOTICE_TEXT, active: true, updatedAt: now };
  return await setMissing(kv, [[keys.notice(), notice]], { storeWasEmpty: newStore });
}

/** The stored notice (a miss before the first seeding). */
export async function getNoticeEntry(kv: Deno.Kv): Promise<Deno.KvEntryMaybe<NoticeRecord>> {
  return await kv.get<NoticeRecord>(keys.notice());
}

/** Replaces the notice, checked against the entry read. */
export function writeNoticeInto(
  op: Deno.AtomicOperation,
  previous: Deno.KvEntryMaybe<NoticeRecord>,
  notice: NoticeRecord,
): void {
  op.check(previous).set(keys.notice(), notice);
}
