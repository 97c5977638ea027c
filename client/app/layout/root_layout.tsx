import { Suspense, useEffect } from "react";
import { Outlet, ScrollRestoration, useLocation } from "react-router-dom";
import { BANNER_TEXT } from "../../../shared/policy.ts";
import { findPage, PAGES, pageTitle } from "../../../shared/routes.ts";
import { loadCart } from "../cart/cart_service.ts";
import { Footer } from "./footer.tsx";
import { Header } from "./header.tsx";
import { Toasts } from "./toasts.tsx";
import { useApplyTheme } from "./use_theme.ts";

/** The frame of every page: banner, header, the page, footer and toasts. */
export function RootLayout() {
  useApplyTheme();
  useDocumentMeta();
  useEffect(() => {
    // The badge needs the cart's quantities on every page, not only on /cart.
    loadCart();
  }, []);
  return (
    <>
      <a href="#main" className="skip-link">Skip to content</a>
      <div className="banner" role="note">{BANNER_TEXT}</div>
      <Header />
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p className="loading">Loading...</p>}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <Toasts />
      <ScrollRestoration />
    </>
  );
}

function useDocumentMeta(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    const page = findPage(pathname);
    document.title = pageTitle(page?.title ?? "Page not found");
    document.querySelector('meta[name="description"]')
      ?.setAttribute("content", page?.description ?? PAGES[0].description);
  }, [pathname]);
}
