import { type FormEvent, useState } from "react";
import { toast } from "react-hot-toast";
import type { StaffMemberView } from "../../../shared/api_types.ts";
import { type Role, ROLE_LABELS, ROLES } from "../../../shared/roles.ts";
import { staffInviteSchema } from "../../../shared/schemas.ts";
import { adminErrorMessage, isSessionRefusal, reportAdminError } from "./admin_api.ts";
import { issueField } from "./catalog_api.ts";
import { Dialog } from "./dialog.tsx";
import { FormError, InputField } from "./form_fields.tsx";
import { changeStaffRole, fetchStaff, inviteStaff, removeStaff } from "./staff_api.ts";
import { useFields } from "./use_fields.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";

/** The statuses whose sentence the server writes for people (a bad email, a member already). */
const EXPLAINED = [400, 403, 404, 409];

function when(iso: string | null): string {
  if (!iso) return "Not yet";
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * The Staff tab (the owner's): who helps run the shop, their role and when they were last seen;
 * an invitation form (email and role); a role change per member; and removal, asked once, which
 * signs the member out everywhere at once.
 */
export function StaffTab() {
  const section = useSectionData(fetchStaff, "The staff could not be loaded");
  return (
    <section className="admin-staff" aria-labelledby="staff-heading">
      <div className="admin-section-head">
        <h2 id="staff-heading">Staff</h2>
        <button type="button" className="link-button" onClick={section.load}>Refresh</button>
      </div>
      <InviteForm onInvited={section.load} />
      {section.data === null
        ? <SectionStatus section={section} loading="Loading staff..." />
        : <StaffList members={section.data} onChanged={section.load} />}
    </section>
  );
}

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const fields = useFields("staff-invite", { email: "", role: "staff" });
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const body = { email: fields.values.email, role: fields.values.role };
    if (!fields.accepts(staffInviteSchema, body)) return;
    setBusy(true);
    try {
      const member = await inviteStaff(body);
      toast.success(`Invitation sent to ${member.email}`);
      fields.reset({ email: "", role: "staff" });
      onInvited();
    } catch (err) {
      // A session found gone is told once, by adminApi, and the form closes with the dashboard.
      if (isSessionRefusal(err)) return;
      const message = adminErrorMessage(err, "The invitation could not be sent", EXPLAINED);
      fields.showError(message, issueField(err) ?? "email");
      toast.error(message);
    } finally {
      setBusy(false);
    }
  }

  const roleId = fields.idOf("role");
  return (
    <form
      className="card admin-staff-invite"
      aria-labelledby="staff-invite-heading"
      onSubmit={submit}
    >
      <h3 id="staff-invite-heading">Invite a helper</h3>
      <p className="muted small">
        They get an email with a link that works once, for a day, to choose their password. Inviting
        a pending email again sends a new link and cancels the old one.
      </p>
      <div className="row">
        <InputField fields={fields} name="email" label="Email" type="email" maxLength={254} />
        <div className="field">
          <label htmlFor={roleId}>Role</label>
          <select
            id={roleId}
            name="role"
            value={fields.values.role}
            aria-invalid={fields.errors.role ? true : undefined}
            aria-describedby={fields.errors.role ? `${roleId}-error` : undefined}
            onChange={(e) => fields.set("role", e.target.value)}
          >
            {ROLES.map((r) => <option key={r} value={r}>{ROLE_LABELS[r]}</option>)}
          </select>
          {fields.errors.role && (
            <p id={`${roleId}-error`} className="error-text small" role="alert">
              {fields.errors.role}
            </p>
          )}
        </div>
      </div>
      <FormError message={fields.errors.form} />
      <button type="submit" className="button" aria-disabled={busy} aria-busy={busy}>
        Send invitation
      </button>
    </form>
  );
}

function StaffList(
  { members, onChanged }: { members: StaffMemberView[]; onChanged: () => void },
) {
  const [removing, setRemoving] = useState<StaffMemberView | null>(null);
  const [busy, setBusy] = useState(false);

  async function setRole(member: StaffMemberView, role: Role) {
    if (busy) return;
    setBusy(true);
    try {
      await changeStaffRole(member.id, role);
      toast.success(`${member.email} is now ${ROLE_LABELS[role]}`);
    } catch (err) {
      reportAdminError(err, "The role could not be changed", EXPLAINED);
    } finally {
      setBusy(false);
      onChanged();
    }
  }

  async function remove(member: StaffMemberView) {
    if (busy) return;
    setBusy(true);
    try {
      await removeStaff(member.id);
      toast.success(`${member.email} was removed and signed out`);
      setRemoving(null);
    } catch (err) {
      reportAdminError(err, "The member could not be removed", EXPLAINED);
    } finally {
      setBusy(false);
      onChanged();
    }
  }

  if (members.length === 0) {
    return <p className="muted">Nobody else has access yet. Invite a helper above.</p>;
  }
  return (
    <>
      <div className="admin-table-wrap">
        <table className="admin-table admin-staff-table">
          <caption className="visually-hidden">Staff members</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Invited</th>
              <th scope="col">Last seen</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.id}>
                <th scope="row">{m.email}</th>
                <td>
                  <select
                    aria-label={`Role of ${m.email}`}
                    value={m.role}
                    aria-disabled={busy || undefined}
                    onChange={(e) => setRole(m, e.target.value as Role)}
                  >
                    {ROLES.map((r) => <option key={r} value={r}>{ROLE_LABELS[r]}</option>)}
                  </select>
                </td>
                <td>{m.status === "active" ? "Active" : "Invited"}</td>
                <td>{when(m.createdAt)} by {m.invitedBy}</td>
                <td>{when(m.lastSeenAt)}</td>
                <td>
                  <button
                    type="button"
                    className="button secondary small-button"
                    aria-label={`Remove ${m.email}`}
                    onClick={() => setRemoving(m)}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {removing && (
        <Dialog title={`Remove ${removing.email}?`} onClose={() => setRemoving(null)}>
          <p>
            They lose access at once: every dashboard they have open stops working on its next
            request. You can invite them again later.
          </p>
          <div className="row">
            <button
              type="button"
              className="button"
              aria-disabled={busy}
              aria-busy={busy}
              onClick={() => remove(removing)}
            >
              Remove {removing.email}
            </button>
            <button type="button" className="button secondary" onClick={() => setRemoving(null)}>
              Keep
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}
