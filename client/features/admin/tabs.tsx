import { type KeyboardEvent, type ReactNode, useRef } from "react";

/** One tab: its id (used in element ids) and its label. */
export interface TabSpec<T extends string> {
  id: T;
  label: string;
}

/** Props of a tab set. */
interface TabsProps<T extends string> {
  /** The tab list's accessible name ('Admin sections'). */
  label: string;
  /** Prefix of the tab and panel element ids (`admin` gives `admin-tab-orders`). */
  idPrefix: string;
  tabs: readonly TabSpec<T>[];
  active: T;
  onChange: (id: T) => void;
  /** The open tab's content; the others are not mounted, so each loads when first opened. */
  children: (id: T) => ReactNode;
  /** Extra class of the tab list (`admin-subtabs` for a nested set). */
  className?: string;
}

/**
 * Tabs following the ARIA tabs pattern: one tab stop, the arrow keys, Home and End move between
 * tabs (and open them), each panel labelled by its tab. Only the open panel is rendered.
 */
export function Tabs<T extends string>(
  { label, idPrefix, tabs, active, onChange, children, className }: TabsProps<T>,
) {
  const tabRefs = useRef<Partial<Record<T, HTMLButtonElement | null>>>({});

  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((t) => t.id === active);
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % tabs.length,
      ArrowLeft: (index - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onChange(tabs[next].id);
    tabRefs.current[tabs[next].id]?.focus();
  }

  return (
    <>
      <div
        role="tablist"
        aria-label={label}
        className={`admin-tabs ${className ?? ""}`}
        onKeyDown={onTabKey}
      >
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(el) => {
              tabRefs.current[tab.id] = el;
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${tab.id}`}
            aria-selected={active === tab.id}
            aria-controls={`${idPrefix}-panel-${tab.id}`}
            tabIndex={active === tab.id ? 0 : -1}
            className="admin-tab"
            onClick={() => onChange(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={`${idPrefix}-panel-${tab.id}`}
          aria-labelledby={`${idPrefix}-tab-${tab.id}`}
          tabIndex={0}
          hidden={active !== tab.id}
          className="admin-panel"
        >
          {active === tab.id && children(tab.id)}
        </div>
      ))}
    </>
  );
}
