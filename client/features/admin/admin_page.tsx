import { useEffect, useState } from "react";
import { useStore } from "../../app/store/store.ts";
import { hasAdminSession } from "./admin_api.ts";
import { Dashboard } from "./dashboard.tsx";
import { LoginForm } from "./login_form.tsx";

/**
 * /admin: the password form, or the dashboard once the server accepted the password. The
 * adminAuth flag (sessionStorage) restores the dashboard on reload; the server's session is
 * checked first, and a 401 drops the flag and shows the form again.
 */
export function AdminPage() {
  const adminAuth = useStore((s) => s.adminAuth);
  const setAdminAuth = useStore((s) => s.setAdminAuth);
  // On load with the flag set, the dashboard waits for the session check.
  const [checking, setChecking] = useState(adminAuth);

  useEffect(() => {
    if (!checking) return;
    let live = true;
    hasAdminSession()
      .then((ok) => {
        if (live && !ok) setAdminAuth(false);
      })
      // A network failure is not proof of a lost session: the dashboard reports its own errors.
      .catch((err) => console.warn("Admin session check failed", err))
      .finally(() => {
        if (live) setChecking(false);
      });
    return () => {
      live = false;
    };
  }, [checking, setAdminAuth]);

  if (!adminAuth) return <LoginForm onSuccess={() => setAdminAuth(true)} />;
  if (checking) {
    return (
      <section className="page">
        <h1>Admin Dashboard</h1>
        <p className="loading" role="status">Checking your admin session...</p>
      </section>
    );
  }
  return <Dashboard onLoggedOut={() => setAdminAuth(false)} />;
}
