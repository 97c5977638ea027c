import { useEffect, useRef, useState } from "react";
import { useStore } from "../store/store.ts";
import { NavLink, useLocation } from "react-router-dom";
import { CartIcon } from "./cart_badge.tsx";
import { Logo } from "./logo.tsx";
import { ThemeButton } from "./theme_button.tsx";
import { useHeaderVisibility } from "./use_header_visibility.ts";
import { AccountMenu } from "./account_menu.tsx";

/** The sticky top bar: logo, navigation with the cart, theme button and the mobile menu. */
export function Header() {
  const visible = useHeaderVisibility();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const count = useStore((s) => s.badgeCount);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => setMenuOpen(false), [location.pathname]);
  // An open menu (phones) closes on Escape (focus back on its button) and on scroll, so it is
  // never left floating over a page that moved on under it.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    const onScroll = () => setMenuOpen(false);
    document.addEventListener("keydown", onKey);
    globalThis.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      document.removeEventListener("keydown", onKey);
      globalThis.removeEventListener("scroll", onScroll);
    };
  }, [menuOpen]);
  const cartName = count > 0 ? `Cart, ${count} ${count === 1 ? "item" : "items"}` : "Cart";

  return (
    <header className={visible ? "site-header" : "site-header hidden"} data-visible={visible}>
      <div className="header-inner">
        <Logo />
        <nav
          aria-label="Main"
          className={menuOpen ? "main-nav open" : "main-nav"}
          id="main-nav"
          onBlur={(event) => {
            // Tabbing out of the open menu closes it (the page behind it is where focus went).
            const next = event.relatedTarget as Node | null;
            if (
              menuOpen && next && !event.currentTarget.contains(next) && next !== menuButton.current
            ) {
              setMenuOpen(false);
            }
          }}
        >
          <NavLink to="/" end>Home</NavLink>
          <NavLink to="/shop">Shop</NavLink>
          <NavLink to="/contact">Contact</NavLink>
          <NavLink to="/cart" aria-label={cartName} className="cart-link nav-cart">
            <CartIcon />
            <span className="nav-cart-text">Cart</span>
          </NavLink>
          <AccountMenu />
        </nav>
        <div className="header-actions">
          {/* On a phone the cart stays in the top bar, with its count, outside the folded menu. */}
          <NavLink to="/cart" aria-label={cartName} className="cart-link top-bar-cart">
            <CartIcon badgeTestId="top-bar-cart-badge" />
          </NavLink>
          <ThemeButton />
          <button
            ref={menuButton}
            type="button"
            className="icon-button menu-button"
            aria-expanded={menuOpen}
            aria-controls="main-nav"
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            onClick={() => {
              const opening = !menuOpen;
              setMenuOpen(opening);
              // Opening moves the focus to the menu's first link, so Tab walks the menu.
              if (opening) {
                requestAnimationFrame(() =>
                  document.querySelector<HTMLElement>("#main-nav.open a")?.focus()
                );
              }
            }}
          >
            <span aria-hidden="true">{menuOpen ? "✕" : "☰"}</span>
          </button>
        </div>
      </div>
    </header>
  );
}
