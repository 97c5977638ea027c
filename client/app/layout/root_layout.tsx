import { lazy, Suspense, useEffect, useRef } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { RouteErrorBoundary } from "../route_error.tsx";
import { findPage, PAGES, pageTitle } from "../../../shared/routes.ts";
import { loadCart } from "../cart/cart_service.ts";
import { Footer } from "./footer.tsx";
import { Header } from "./header.tsx";
import { loadNotice, NOTICE_PATH, NoticeBanner } from "./notice_banner.tsx";
import { embeddedAnswer } from "../page_data.ts";
import { announce } from "../announcer/announcements.ts";

// The toast area loads after the page: the first paint does not need it, and the home page's
// JavaScript budget is tight. A toast raised before it mounts still shows once it does.
const Toasts = lazy(async () => ({ default: (await import("./toasts.tsx")).Toasts }));
import { useApplyTheme } from "./use_theme.ts";

/** The frame of every page: banner, header, the page, footer and toasts. */
export function RootLayout() {
  const { pathname } = useLocation();
  useApplyTheme();
  useDocumentMeta(pathname);
  useRouteFocus(pathname);
  useEffect(() => {
    // A new page starts at its top, as a multi-page site would.
    if (!location.hash) globalThis.scrollTo(0, 0);
  }, [pathname]);
  useEffect(() => {
    // The badge needs the cart's quantities on every page, not only on /cart.
    loadCart();
    // Once per visit: the banner is the same on every page (a server-rendered one came with it).
    if (embeddedAnswer(NOTICE_PATH) === undefined) loadNotice();
  }, []);
  return (
    <>
      <a href="#main" className="skip-link">Skip to content</a>
      <NoticeBanner />
      <Header />
      <main id="main" tabIndex={-1}>
        {/* Keyed by path, so an error on one page is forgotten when the shopper moves on. */}
        <RouteErrorBoundary key={pathname}>
          <Suspense fallback={<p className="loading">Loading...</p>}>
            <Outlet />
            <Hydrated />
          </Suspense>
        </RouteErrorBoundary>
      </main>
      <Footer />
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>
    </>
  );
}

/**
 * After a navigation (not the first load), focus moves to the new page's main heading, or to
 * <main> while the page is still loading, and its title is announced: a screen reader user hears
 * where they are, and a keyboard user continues from the top of the new page.
 */
function useRouteFocus(pathname: string): void {
  // The path last focused for, not a first-run flag: development's StrictMode runs every effect
  // twice on mount, and a flag let the second run treat the first load as a navigation. It then
  // marked the server-rendered heading tabindex="-1" before its page had hydrated, and React
  // reported a hydration mismatch on the heading of every page loaded in development.
  const focusedFor = useRef(pathname);
  useEffect(() => {
    if (focusedFor.current === pathname) return;
    focusedFor.current = pathname;
    let frame = 0;
    let tries = 0;
    const settle = () => {
      const heading = document.querySelector<HTMLElement>("main h1");
      if (!heading && tries++ < 120) {
        frame = requestAnimationFrame(settle);
        return;
      }
      const main = document.getElementById("main");
      const target = heading ?? main;
      // A page that placed the focus itself (a form's first field) keeps it.
      const placed = main?.contains(document.activeElement) && document.activeElement !== main;
      if (target && !placed) {
        if (target === heading && !heading.hasAttribute("tabindex")) {
          heading.setAttribute("tabindex", "-1");
        }
        target.focus({ preventScroll: true });
      }
      // Said as a page load would say it.
      announce(document.title);
    };
    frame = requestAnimationFrame(settle);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
}

function useDocumentMeta(pathname: string): void {
  useEffect(() => {
    const page = findPage(pathname);
    document.title = pageTitle(page?.title ?? "Page not found");
    document.querySelector('meta[name="description"]')
      ?.setAttribute("content", page?.description ?? PAGES[0].description);
  }, [pathname]);
}

/**
 * Marks <html data-hydrated> once the page (not only the frame) is live: rendered inside the
 * page's Suspense boundary, its effect runs when that boundary has hydrated (or rendered).
 * Until then a server-rendered page reads and links but its buttons do nothing; tests wait for
 * it before pressing them.
 */
function Hydrated() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return null;
}
