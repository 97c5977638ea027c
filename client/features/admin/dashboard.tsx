import { type KeyboardEvent, useRef, useState } from "react";
import { toast } from "react-hot-toast";
import { logoutAdmin } from "./admin_api.ts";
import { InventoryTab } from "./inventory_tab.tsx";
import { OrdersTab } from "./orders_tab.tsx";
import { TestTab } from "./test_tab.tsx";

const TABS = [
  { id: "orders", label: "Orders" },
  { id: "inventory", label: "Inventory" },
  { id: "test", label: "Test" },
] as const;

type TabId = typeof TABS[number]["id"];

/** Props of the dashboard. */
interface DashboardProps {
  /** Called after logging out (the flag is then dropped by the page). */
  onLoggedOut: () => void;
}

/**
 * The Admin Dashboard: three tabs (Orders, Inventory, Test) following the ARIA tabs pattern,
 * with the arrow keys, Home and End moving between tabs. Only the open tab is mounted, so the
 * inventory (and its charts) load when first opened.
 */
export function Dashboard({ onLoggedOut }: DashboardProps) {
  const [active, setActive] = useState<TabId>("orders");
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const index = TABS.findIndex((t) => t.id === active);
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % TABS.length,
      ArrowLeft: (index - 1 + TABS.length) % TABS.length,
      Home: 0,
      End: TABS.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    setActive(TABS[next].id);
    tabRefs.current[TABS[next].id]?.focus();
  }

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
      <div role="tablist" aria-label="Admin sections" className="admin-tabs" onKeyDown={onTabKey}>
        {TABS.map((tab) => (
          <button
            key={tab.id}
            ref={(el) => {
              tabRefs.current[tab.id] = el;
            }}
            type="button"
            role="tab"
            id={`admin-tab-${tab.id}`}
            aria-selected={active === tab.id}
            aria-controls={`admin-panel-${tab.id}`}
            tabIndex={active === tab.id ? 0 : -1}
            className="admin-tab"
            onClick={() => setActive(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {TABS.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`admin-panel-${tab.id}`}
          aria-labelledby={`admin-tab-${tab.id}`}
          tabIndex={0}
          hidden={active !== tab.id}
          className="admin-panel"
        >
          {active === tab.id && tab.id === "orders" && <OrdersTab />}
          {active === tab.id && tab.id === "inventory" && <InventoryTab />}
          {active === tab.id && tab.id === "test" && <TestTab />}
        </div>
      ))}
    </section>
  );
}
