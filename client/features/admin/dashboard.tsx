import { lazy, Suspense, useMemo, useState } from "react";
import { toast } from "react-hot-toast";
import { useRequest } from "../../app/use_request.ts";
import { fetchAdminSession, logoutAdmin } from "./admin_api.ts";
import { InventoryTab } from "./inventory_tab.tsx";
import { OrdersTab } from "./orders_tab.tsx";
import { Tabs } from "./tabs.tsx";
import { TestTab } from "./test_tab.tsx";
import { AdminCanContext } from "./admin_can.tsx";
import type { Capability } from "../../../shared/admin_permissions.ts";
import { ROLE_LABELS } from "../../../shared/roles.ts";

/** The catalogue editor is large and used weekly, so it loads when its tab is first opened. */
const CatalogTab = lazy(async () => ({ default: (await import("./catalog_tab.tsx")).CatalogTab }));
/** The morning's tabs load when first opened too. */
const SalesTab = lazy(async () => ({ default: (await import("./sales_tab.tsx")).SalesTab }));
const PrintDayTab = lazy(async () => ({
  default: (await import("./print_day_tab.tsx")).PrintDayTab,
}));
const EmailsTab = lazy(async () => ({ default: (await import("./emails_tab.tsx")).EmailsTab }));
const ApiKeysTab = lazy(async () => ({
  default: (await import("./api_keys_tab.tsx")).ApiKeysTab,
}));
/** The owner's audit log, read now and then. */
const AuditTab = lazy(async () => ({ default: (await import("./audit_tab.tsx")).AuditTab }));
/** The people and sessions tabs are opened rarely, so they load when first opened too. */
const StaffTab = lazy(async () => ({ default: (await import("./staff_tab.tsx")).StaffTab }));
const SecurityTab = lazy(async () => ({
  default: (await import("./security_tab.tsx")).SecurityTab,
}));

/** Each tab and what a role needs to see it (shared/admin_permissions.ts). */
const TABS = [
  { id: "orders", label: "Orders", needs: "orders" },
  { id: "inventory", label: "Inventory", needs: "inventory_counts" },
  { id: "sales", label: "Sales", needs: "sales" },
  { id: "print", label: "Print day", needs: "print_day" },
  { id: "emails", label: "Emails", needs: "email_resends" },
  { id: "catalog", label: "Catalogue", needs: "catalog" },
  { id: "audit", label: "Audit", needs: "audit" },
  { id: "staff", label: "Staff", needs: "staff" },
  { id: "security", label: "Security", needs: "own_security" },
  { id: "api-keys", label: "API Keys", needs: "api_keys" },
  { id: "test", label: "Test", needs: "settings" },
] as const satisfies readonly { id: string; label: string; needs: Capability }[];

type TabId = typeof TABS[number]["id"];

/** Props of the dashboard. */
interface DashboardProps {
  /** Called after logging out (the flag is then dropped by the page). */
  onLoggedOut: () => void;
}

/**
 * The Admin Dashboard: the tabs the signed-in role may use (the owner's eleven: Orders, Inventory,
 * Sales, Print day, Emails, Catalogue, Audit, Staff, Security, API Keys, Test) following the ARIA
 * tabs pattern, with the arrow keys, Home and End moving between tabs. Only the open tab is mounted, so the inventory
 * (and its charts) and the catalogue load when first opened. No tab shows before the session
 * says the role, so staff never glimpse the owner's tabs.
 */
export function Dashboard({ onLoggedOut }: DashboardProps) {
  const [active, setActive] = useState<TabId>("orders");
  const session = useRequest("admin-session-facts", () => fetchAdminSession());
  const can = useMemo(() => new Set<Capability>(session.data?.can ?? []), [session.data]);
  const tabs = TABS.filter((tab) => can.has(tab.needs));
  // Logging out closes the open tab first: a read it still has under way is refused (401) once the
  // session is gone, which is no error to show the owner who asked to leave.
  const [leaving, setLeaving] = useState(false);

  async function logout() {
    if (leaving) return;
    setLeaving(true);
    try {
      await logoutAdmin();
      toast.success("Logged out");
    } catch (err) {
      // The flag is dropped anyway; the cookie expires on its own.
      console.error(err);
      toast.error("An error occurred");
    }
    onLoggedOut();
  }

  return (
    <section className="page admin-dashboard">
      <div className="admin-header">
        <h1>Admin Dashboard</h1>
        <button
          type="button"
          className="button secondary"
          onClick={logout}
          aria-disabled={leaving || undefined}
        >
          Log out
        </button>
      </div>
      {
        // Above the tabs, so every admin page says it: an owner must not ship orders that were
        // never paid for. Shown in development too, where the demo provider is the default, since
        // a shop run without DENO_ENV=production may still be mistaken for a real one.
        session.data?.paymentsSimulated && (
          <p className="banner admin-demo-payments" data-testid="demo-payments-banner">
            Payments are simulated: this shop runs on the demo provider and no real money moves. Set
            the payment provider's keys to take real payments.
          </p>
        )
      }
      {session.data && (
        <p className="muted small admin-signed-in-as">
          Signed in as {session.data.name} ({ROLE_LABELS[session.data.role]})
        </p>
      )}
      {leaving ? <p className="loading" role="status">Logging out...</p> : tabs.length === 0
        ? (
          session.state === "failed"
            ? (
              <div className="admin-empty">
                <p className="error-text">The dashboard could not be loaded.</p>
                <button type="button" className="button" onClick={session.reload}>
                  Try again
                </button>
              </div>
            )
            : <p className="loading" role="status">Loading...</p>
        )
        : (
          <AdminCanContext value={can}>
            <Tabs
              label="Admin sections"
              idPrefix="admin"
              tabs={tabs}
              active={tabs.some((tab) => tab.id === active) ? active : tabs[0].id}
              onChange={setActive}
            >
              {(id) => (
                <>
                  {id === "orders" && <OrdersTab />}
                  {id === "inventory" && <InventoryTab />}
                  <Suspense fallback={<p className="loading" role="status">Loading...</p>}>
                    {id === "sales" && <SalesTab />}
                    {id === "print" && <PrintDayTab />}
                    {id === "emails" && <EmailsTab />}
                    {id === "catalog" && <CatalogTab />}
                    {id === "audit" && <AuditTab />}
                    {id === "staff" && <StaffTab />}
                    {id === "security" && <SecurityTab isOwner={session.data?.role === "owner"} />}
                    {id === "api-keys" && <ApiKeysTab />}
                  </Suspense>
                  {id === "test" && <TestTab />}
                </>
              )}
            </Tabs>
          </AdminCanContext>
        )}
    </section>
  );
}
