import { useCallback, useState } from "react";
import { toast } from "react-hot-toast";
import type { AdminSessionItemView } from "../../../shared/api_types.ts";
import { useStore } from "../../app/store/store.ts";
import { leaveAdminSession, reportAdminError } from "./admin_api.ts";
import { endSession, fetchSessions } from "./staff_api.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";
import { SecondFactorSection } from "./second_factor_section.tsx";

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/**
 * The Security tab, for every account: its second factors (an authenticator app, passkeys,
 * recovery codes; for the owner, whether staff must have one), the dashboard sessions signed in as you (this device
 * marked), any of which you can end; and for the owner, everyone's. Ending this device's session
 * signs it out.
 */
export function SecurityTab({ isOwner }: { isOwner: boolean }) {
  return (
    <div className="admin-security">
      <SecondFactorSection owner={isOwner} />
      <SessionsSection all={false} />
      {isOwner && <SessionsSection all />}
    </div>
  );
}

function SessionsSection({ all }: { all: boolean }) {
  const load = useCallback(() => fetchSessions(all), [all]);
  const section = useSectionData(load, "The sessions could not be loaded");
  const [busy, setBusy] = useState(false);
  const heading = all ? "Everyone's sessions" : "Your sessions";
  const headingId = all ? "sessions-all-heading" : "sessions-mine-heading";

  async function end(session: AdminSessionItemView) {
    if (busy) return;
    setBusy(true);
    // Signing this device out is leaving on purpose: the calls still under way say nothing of it.
    if (session.current) leaveAdminSession();
    try {
      const signedOut = await endSession(session.id);
      if (signedOut) {
        toast.success("Signed out of this device");
        useStore.getState().setAdminAuth(false);
        return;
      }
      toast.success(`Session on ${session.device} ended`);
    } catch (err) {
      reportAdminError(err, "The session could not be ended", [403, 404]);
    } finally {
      setBusy(false);
    }
    await section.load();
  }

  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="admin-section-head">
        <h2 id={headingId}>{heading}</h2>
        <button type="button" className="link-button" onClick={section.load}>Refresh</button>
      </div>
      {section.data === null
        ? <SectionStatus section={section} loading="Loading sessions..." />
        : (
          <div className="admin-table-wrap">
            <table className="admin-table admin-sessions-table">
              <caption className="visually-hidden">{heading}</caption>
              <thead>
                <tr>
                  {all && <th scope="col">Account</th>}
                  <th scope="col">Device</th>
                  <th scope="col">Address</th>
                  <th scope="col">Signed in</th>
                  <th scope="col">Last seen</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {section.data.map((s) => (
                  <tr key={s.id}>
                    {all && <td>{s.name}</td>}
                    <th scope="row">
                      {s.device}
                      {s.current && <span className="badge">This device</span>}
                    </th>
                    <td>{s.address}</td>
                    <td>{when(s.createdAt)}</td>
                    <td>{when(s.lastSeenAt)}</td>
                    <td>
                      <button
                        type="button"
                        className="button secondary small-button"
                        aria-disabled={busy || undefined}
                        aria-label={s.current
                          ? "Sign out of this device"
                          : `End the session on ${s.device}${all ? ` of ${s.name}` : ""}`}
                        onClick={() => end(s)}
                      >
                        {s.current ? "Sign out" : "End"}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </section>
  );
}
