import { lazy, Suspense, useState } from "react";
import { toast } from "react-hot-toast";
import { useRequest } from "../../app/use_request.ts";
import { fetchAdminSession, logoutAdmin } from "./admin_api.ts";
import { InventoryTab } from "./inventory_tab.tsx";
import { OrdersTab } from "./orders_tab.tsx";
import { Tabs } from "./tabs.tsx";
import { TestTab } from "./test_tab.tsx";

/** The catalogue editor is large and used weekly, so it loads when its tab is first opened. */
const CatalogTab = lazy(async () => ({ default: (await import("./catalog_tab.tsx")).CatalogTab }));
/** The morning's tabs load when first opened too. */
const SalesTab = lazy(async () => ({ default: (await import("./sales_tab.tsx")).SalesTab }));
const PrintDayTab = lazy(async () => ({
  default: (await import("./print_day_tab.tsx")).PrintDayTab,
}));
const EmailsTab = lazy(async () => ({ default: (await import("./emails_tab.tsx")).EmailsTab }));
/**
 * The account's second factors, in a tab of their own until the Security tab holds them; loaded
 * when first opened, with the QR code's encoder.
 */
const SecondFactorSection = lazy(async () => ({
  default: (await import("./second_factor_section.tsx")).SecondFactorSection,
}));

const TABS = [
  { id: "orders", label: "Orders" },
  { id: "inventory", label: "Inventory" },
  { id: "sales", label: "Sales" },
  { id: "print", label: "Print day" },
  { id: "emails", label: "Emails" },
  { id: "catalog", label: "Catalogue" },
  { id: "security", label: "Security" },
  { id: "test", label: "Test" },
] as const;

type TabId = typeof TABS[number]["id"];

/** Props of the dashboard. */
interface DashboardProps {
  /** Called after logging out (the flag is then dropped by the page). */
  onLoggedOut: () => void;
}

/**
 * The Admin Dashboard: eight tabs (Orders, Inventory, Sales, Print day, Emails, Catalogue, Security,
 * Test)
 * following the ARIA tabs
 * pattern, with the arrow keys, Home and End moving between tabs. Only the open tab is mounted,
 * so the inventory (and its charts) and the catalogue load when first opened.
 */
export function Dashboard({ onLoggedOut }: DashboardProps) {
  const [active, setActive] = useState<TabId>("orders");
  const session = useRequest("admin-session-facts", () => fetchAdminSession());

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
      <Tabs
        label="Admin sections"
        idPrefix="admin"
        tabs={TABS}
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
              {id === "security" && <SecondFactorSection owner />}
            </Suspense>
            {id === "test" && <TestTab />}
          </>
        )}
      </Tabs>
    </section>
  );
}
