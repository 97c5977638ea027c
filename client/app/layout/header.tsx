import { useEffect, useState } from "react";
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
  useEffect(() => setMenuOpen(false), [location.pathname]);

  return (
    <header className={visible ? "site-header" : "site-header hidden"} data-visible={visible}>
      <div className="header-inner">
        <Logo />
        <nav aria-label="Main" className={menuOpen ? "main-nav open" : "main-nav"} id="main-nav">
          <NavLink to="/" end>Home</NavLink>
          <NavLink to="/shop">Shop</NavLink>
          <NavLink to="/contact">Contact</NavLink>
          <NavLink to="/cart" aria-label="Cart" className="cart-link">
            <CartIcon />
            <span className="nav-cart-text">Cart</span>
          </NavLink>
          <AccountMenu />
        </nav>
        <div className="header-actions">
          <ThemeButton />
          <button
            type="button"
            className="icon-button menu-button"
            aria-expanded={menuOpen}
            aria-controls="main-nav"
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span aria-hidden="true">{menuOpen ? "✕" : "☰"}</span>
          </button>
        </div>
      </div>
    </header>
  );
}
