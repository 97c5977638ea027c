import { type FormEvent, useCallback, useEffect, useState } from "react";
import { toast } from "react-hot-toast";
import { noticeSchema } from "../../../shared/schemas.ts";
import { useStore } from "../../app/store/store.ts";
import { adminErrorMessage } from "./admin_api.ts";
import type { AdminNoticeView } from "../../../shared/api_types.ts";
import { fetchNotice, isConflict, issueField, saveNotice } from "./catalog_api.ts";
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
  const [notice, setNotice] = useState<AdminNoticeView | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async (): Promise<AdminNoticeView | null> => {
    try {
      const fresh = await fetchNotice();
      setNotice(fresh);
      setFailed(false);
      return fresh;
    } catch (err) {
      console.error(err);
      setFailed(true);
      toast.error(adminErrorMessage(err, "The notice could not be loaded"));
      return null;
    }
  }, []);

  useEffect(() => {
    load();
  }, [load]);

  if (!notice) {
    return failed
      ? (
        <div className="admin-empty">
          <p className="error-text">The notice could not be loaded.</p>
          <button type="button" className="button" onClick={load}>Try again</button>
        </div>
      )
      : <p className="loading" role="status">Loading the notice...</p>;
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
    const body = {
      text: fields.values.text,
      active: fields.values.active,
      ...(base.version ? { version: base.version } : {}),
    };
    if (!fields.accepts(noticeSchema, body)) return;
    setBusy(true);
    try {
      const saved = await saveNotice(body);
      // This tab's own banner follows at once; shoppers see it the next time they open the shop.
      useStore.getState().setNotice(saved);
      setBase(saved);
      fields.reset(valuesOf(saved));
      setConflict(null);
      toast.success(saved.active ? "Notice saved and shown" : "Notice saved and hidden");
    } catch (err) {
      if (isConflict(err)) {
        setConflict(err.message);
      } else {
        const message = adminErrorMessage(err, "The notice could not be saved", [400]);
        fields.showError(message, issueField(err));
        toast.error(message);
      }
    } finally {
      setBusy(false);
    }
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
        <button type="submit" className="button" disabled={busy}>
          {busy ? "Saving..." : "Save notice"}
        </button>
      </form>
    </section>
  );
}
