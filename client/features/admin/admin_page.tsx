import { lazy, Suspense, useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useStore } from "../../app/store/store.ts";
import { moveFocusWhenLost } from "../../app/move_focus.ts";
import { useRequest } from "../../app/use_request.ts";
import { hasAdminSession } from "./admin_api.ts";
import { Dashboard } from "./dashboard.tsx";
import { LoginForm } from "./login_form.tsx";

/** The invitation link's form, needed once per helper, so it loads only for the link. */
const InvitePage = lazy(async () => ({ default: (await import("./invite_page.tsx")).InvitePage }));

/**
 * /admin?token= (an invitation link): the helper chooses their password. The link is /admin's own
 * rather than a page of its own, so the shop's route table (which every shopper downloads) does
 * not grow for it; the token is a `token` parameter, which the Emails tab hides.
 */
export function AdminPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  if (token !== null) {
    return (
      <Suspense fallback={<p className="loading" role="status">Loading...</p>}>
        <InvitePage token={token} />
      </Suspense>
    );
  }
  return <AdminSignInOrDashboard />;
}

/**
 * /admin: the password form, or the dashboard once the server accepted the password. The
 * adminAuth flag (sessionStorage) restores the dashboard on reload; the server's session is
 * checked first, and a 401 drops the flag and shows the form again. Logging in or out replaces
 * the form or the dashboard with the focus in it: the focus moves to the new one's heading.
 */
function AdminSignInOrDashboard() {
  const adminAuth = useStore((s) => s.adminAuth);
  const setAdminAuth = useStore((s) => s.setAdminAuth);
  // Only a flag found on load is checked; a login on this page has just made the session.
  const [flagOnLoad] = useState(adminAuth);
  const session = useRequest(flagOnLoad ? "admin-session" : null, async (signal) => {
    const ok = await hasAdminSession();
    // Dropped with the answer, so the dashboard is never shown for a session that is gone.
    if (!ok && !signal.aborted) setAdminAuth(false);
    return ok;
  });

  useEffect(() => {
    // A network failure is not proof of a lost session: the dashboard reports its own errors.
    if (session.state === "failed") console.warn("Admin session check failed", session.error);
  }, [session.state, session.error]);

  // On load with the flag set, the dashboard waits for the session check.
  const checking = session.state === "loading";
  return (
    <>
      <AdminStyles />
      {!adminAuth
        ? (
          <LoginForm
            onSuccess={() => {
              setAdminAuth(true);
              moveFocusWhenLost(() => [document.querySelector<HTMLElement>(".admin-dashboard h1")]);
            }}
          />
        )
        : checking
        ? (
          <section className="page">
            <h1>Admin Dashboard</h1>
            <p className="loading" role="status">Checking your admin session...</p>
          </section>
        )
        : (
          <Dashboard
            onLoggedOut={() => {
              setAdminAuth(false);
              moveFocusWhenLost(() => [document.querySelector<HTMLElement>(".admin-login h1")]);
            }}
          />
        )}
    </>
  );
}

/**
 * The admin's stylesheet, which the shop's pages leave out (the build names it in a meta tag).
 * React puts it in the head and shows the page once it has loaded, so nothing flashes unstyled.
 */
function AdminStyles() {
  const href = document.querySelector<HTMLMetaElement>('meta[name="admin-styles"]')?.content;
  return href ? <link rel="stylesheet" href={href} precedence="admin" /> : null;
}
