import { type FormEvent, useState } from "react";
import { toast } from "react-hot-toast";
import { noticeSchema } from "../../../shared/schemas.ts";
import { useStore } from "../../app/store/store.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";
import type { AdminNoticeView } from "../../../shared/api_types.ts";
import { fetchNotice, saveNotice } from "./catalog_api.ts";
import { saveRecord } from "./save_record.ts";
import { ConflictNotice } from "./conflict_notice.tsx";
import { CheckField, FormError, TextAreaField } from "./form_fields.tsx";
import { useFields } from "./use_fields.ts";

/** The notice's longest text, as the field allows typing it (the schema has the final word). */
const NOTICE_MAX = 300;

/**
 * Notice: the red banner on every page. Its text and whether it shows, with a preview of the
 * banner as shoppers will see it.
 */
export function NoticeSection() {
  const section = useSectionData(fetchNotice, "The notice could not be loaded");
  const { data: notice, load } = section;

  if (!notice) {
    return <SectionStatus section={section} loading="Loading the notice..." />;
  }
  return <NoticeForm record={notice} reload={load} />;
}

function valuesOf(notice: AdminNoticeView) {
  return { text: notice.text, active: notice.active };
}

function NoticeForm(
  { record, reload }: { record: AdminNoticeView; reload: () => Promise<AdminNoticeView | null> },
) {
  const [base, setBase] = useState(record);
  const fields = useFields("notice", valuesOf(record));
  const [conflict, setConflict] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const text = fields.values.text.trim();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const body = {
      text: fields.values.text,
      active: fields.values.active,
      ...(base.version ? { version: base.version } : {}),
    };
    if (!fields.accepts(noticeSchema, body)) return;
    const saved = await saveRecord({
      request: () => saveNotice(body),
      showError: fields.showError,
      setBusy,
      setConflict,
      failure: "The notice could not be saved",
      explained: [400],
    });
    if (!saved) return;
    // This tab's own banner follows at once; shoppers see it the next time they open the shop.
    useStore.getState().setNotice(saved);
    setBase(saved);
    fields.reset(valuesOf(saved));
    toast.success(saved.active ? "Notice saved and shown" : "Notice saved and hidden");
  }

  async function reloadRecord() {
    const fresh = await reload();
    if (!fresh) return;
    setBase(fresh);
    fields.reset(valuesOf(fresh));
    setConflict(null);
  }

  return (
    <section className="admin-catalog-section" aria-labelledby="catalog-notice-heading">
      <h2 id="catalog-notice-heading">Notice</h2>
      <form className="card admin-form admin-notice-form" onSubmit={submit} noValidate>
        {conflict && (
          <ConflictNotice
            message={conflict}
            what="the notice"
            onReload={reloadRecord}
          />
        )}
        <TextAreaField
          fields={fields}
          name="text"
          label="Banner text"
          maxLength={NOTICE_MAX}
          hint="One or two sentences shown in the red banner at the top of every page"
        />
        <CheckField fields={fields} name="active" label="Show the banner" />
        <div className="admin-notice-preview">
          <p className="muted small">Preview, as shoppers will see it</p>
          {fields.values.active && text
            ? <div className="banner" data-testid="notice-preview">{text}</div>
            : (
              <p className="muted admin-notice-off">
                No banner is shown.
              </p>
            )}
        </div>
        <FormError message={fields.errors.form} />
        <button type="submit" className="button" aria-disabled={busy}>
          {busy ? "Saving..." : "Save notice"}
        </button>
      </form>
    </section>
  );
}
