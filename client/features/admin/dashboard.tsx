import { lazy, Suspense, useState } from "react";
import { toast } from "react-hot-toast";
import { useRequest } from "../../app/use_request.ts";
import { fetchAdminSession, logoutAdmin } from "./admin_api.ts";
import { InventoryTab } from "./inventory_tab.tsx";
import { OrdersTab } from "./orders_tab.tsx";
import { Tabs } from "./tabs.tsx";
import { TestTab } from "./test_tab.tsx";
import { ROLE_LABELS } from "../../../shared/roles.ts";

/** The catalogue editor is large and used weekly, so it loads when its tab is first opened. */
const CatalogTab = lazy(async () => ({ default: (await import("./catalog_tab.tsx")).CatalogTab }));
/** The morning's tabs load when first opened too. */
const SalesTab = lazy(async () => ({ default: (await import("./sales_tab.tsx")).SalesTab }));
const PrintDayTab = lazy(async () => ({
  default: (await import("./print_day_tab.tsx")).PrintDayTab,
}));
const EmailsTab = lazy(async () => ({ default: (await import("./emails_tab.tsx")).EmailsTab }));
/** The people and sessions tabs are opened rarely, so they load when first opened too. */
const StaffTab = lazy(async () => ({ default: (await import("./staff_tab.tsx")).StaffTab }));
const SecurityTab = lazy(async () => ({
  default: (await import("./security_tab.tsx")).SecurityTab,
}));

const TABS = [
  { id: "orders", label: "Orders" },
  { id: "inventory", label: "Inventory" },
  { id: "sales", label: "Sales" },
  { id: "print", label: "Print day" },
  { id: "emails", label: "Emails" },
  { id: "catalog", label: "Catalogue" },
  { id: "staff", label: "Staff" },
  { id: "security", label: "Security" },
  { id: "test", label: "Test" },
] as const;

type TabId = typeof TABS[number]["id"];

/** Tabs only the owner role sees (the server refuses their calls to anyone else). */
const OWNER_TABS: readonly TabId[] = ["staff"];

/** Props of the dashboard. */
interface DashboardProps {
  /** Called after logging out (the flag is then dropped by the page). */
  onLoggedOut: () => void;
}

/**
 * The Admin Dashboard: its tabs (Orders, Inventory, Sales, Print day, Emails, Catalogue, Staff for
 * the owner, Security, Test) following the ARIA tabs
 * pattern, with the arrow keys, Home and End moving between tabs. Only the open tab is mounted,
 * so the inventory (and its charts) and the catalogue load when first opened.
 */
export function Dashboard({ onLoggedOut }: DashboardProps) {
  const [active, setActive] = useState<TabId>("orders");
  const session = useRequest("admin-session-facts", () => fetchAdminSession());
  // Until the session says the role, the owner's tabs stay hidden rather than flash in.
  const isOwner = session.data?.role === "owner";
  const tabs = isOwner ? TABS : TABS.filter((t) => !OWNER_TABS.includes(t.id));

  async function logout() {
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
        <button type="button" className="button secondary" onClick={logout}>Log out</button>
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
      <Tabs
        label="Admin sections"
        idPrefix="admin"
        tabs={tabs}
        active={active}
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
              {id === "staff" && <StaffTab />}
              {id === "security" && <SecurityTab isOwner={isOwner} />}
            </Suspense>
            {id === "test" && <TestTab />}
          </>
        )}
      </Tabs>
    </section>
  );
}
