import { type FormEvent, useCallback, useState } from "react";
import { toast } from "react-hot-toast";
import type { AdminEmailView, MailHealthView } from "../../../shared/api_types.ts";
import { fetchEmails, fetchMailHealth, reportAdminError, resendEmail } from "./admin_api.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";

const STATUS_TEXT: Record<AdminEmailView["status"], string> = {
  pending: "Pending",
  sent: "Sent",
  failed: "Failed",
};

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * The Emails tab: every email the shop sent or will send, newest first, with its status (a
 * failed one with the mail server's error), its text, and Resend.
 */
export function EmailsTab() {
  const [to, setTo] = useState("");
  const [draft, setDraft] = useState("");
  // The answer keeps the address it is for, so the list never says "to this address" early.
  const load = useCallback(async () => {
    const [emails, health] = await Promise.all([fetchEmails(to), fetchMailHealth()]);
    return { to, emails, health };
  }, [to]);
  const section = useSectionData(load, "The emails could not be loaded");

  function search(event: FormEvent) {
    event.preventDefault();
    setTo(draft.trim());
  }

  return (
    <section className="admin-emails" aria-labelledby="emails-heading">
      <div className="admin-section-head">
        <h2 id="emails-heading">Emails</h2>
        <button type="button" className="link-button" onClick={section.load}>Refresh</button>
      </div>
      <form className="admin-order-search" role="search" aria-label="Emails" onSubmit={search}>
        <label>
          Recipient
          <input
            type="search"
            name="to"
            value={draft}
            placeholder="name@example.com"
            maxLength={254}
            onChange={(e) => setDraft(e.target.value)}
          />
        </label>
        <button type="submit" className="button secondary">Show</button>
      </form>
      {section.data && <MailTrouble health={section.data.health} />}
      {section.data === null
        ? <SectionStatus section={section} loading="Loading emails..." />
        : (
          <EmailList
            emails={section.data.emails}
            filtered={section.data.to !== ""}
            onResent={section.load}
          />
        )}
    </section>
  );
}

/** Says when mail is failing, or when emails gave up and wait for a resend; nothing otherwise. */
function MailTrouble({ health }: { health: MailHealthView }) {
  if (!health.failingSince && health.failed === 0) return null;
  return (
    <div className="admin-conflict" role="alert">
      {health.failingSince && (
        <p>
          Emails are not going out: they have been failing since {when(health.failingSince)}
          {health.lastError ? ` (the mail server said: ${health.lastError})` : ""}.{" "}
          {health.waiting === 1 ? "1 email waits" : `${health.waiting} emails wait`}; each is tried
          again for a day after it was written.
        </p>
      )}
      {health.failed > 0 && (
        <p>
          {health.failed === 1 ? "1 email" : `${health.failed} emails`}{" "}
          gave up after a day of failures; find them below (Failed) and resend them once mail works.
        </p>
      )}
    </div>
  );
}

function EmailList(
  { emails, filtered, onResent }: {
    emails: AdminEmailView[];
    filtered: boolean;
    onResent: () => void;
  },
) {
  return (
    <>
      <p className="admin-orders-count" role="status">
        {emails.length === 1 ? "1 email" : `${emails.length} emails`}
        {filtered ? " to this address" : ""}, newest first
      </p>
      {emails.length === 0
        ? <p className="muted">No emails yet.</p>
        : (
          <div className="admin-table-wrap">
            <table className="admin-table admin-emails-table">
              <caption className="visually-hidden">Emails, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">To</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {emails.map((email) => (
                  <EmailRow
                    key={email.id}
                    email={email}
                    onResent={onResent}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
    </>
  );
}

function EmailRow({ email, onResent }: { email: AdminEmailView; onResent: () => void }) {
  const [busy, setBusy] = useState(false);

  async function resend() {
    if (busy) return;
    setBusy(true);
    try {
      await resendEmail(email.id);
      toast.success(`Email to ${email.to} queued again`);
      onResent();
    } catch (err) {
      // 409: an email the shop does not resend (a password reset link), with the reason.
      reportAdminError(err, "The email could not be queued", [404, 409]);
    } finally {
      setBusy(false);
    }
  }

  return (
    <tr data-testid="admin-email">
      <td data-label="Time">{when(email.createdAt)}</td>
      <td data-label="To">{email.to}</td>
      <td data-label="Subject">
        <details>
          <summary>{email.subject}</summary>
          <pre className="admin-email-text">{email.text}</pre>
        </details>
      </td>
      <td data-label="Status">
        <span className={`admin-email-status admin-email-${email.status}`}>
          {STATUS_TEXT[email.status]}
        </span>
        {email.error && email.status !== "sent" && (
          <span className="admin-email-error small">
            {email.status === "failed" ? "Error: " : "Last try: "}
            {email.error}
          </span>
        )}
      </td>
      <td data-label="Actions">
        <button
          type="button"
          className="button secondary small-button"
          aria-disabled={busy}
          aria-label={`Resend "${email.subject}" to ${email.to}`}
          onClick={resend}
        >
          {busy ? "Resending..." : "Resend"}
        </button>
      </td>
    </tr>
  );
}
