import type { ComponentType } from "react";
import { createBrowserRouter, type RouteObject } from "react-router-dom";
import { RootLayout } from "./layout/root_layout.tsx";
import { RouteError } from "./route_error.tsx";

/** A lazily loaded page: its code is fetched the first time the route is visited. */
function lazyPage(path: string, load: () => Promise<ComponentType>): RouteObject {
  return {
    path,
    errorElement: <RouteError />,
    lazy: async () => ({ Component: await load() }),
  };
}

const PACK_SLUGS = ["starter-pack", "popular", "unique", "linear", "tactile", "aesthetic"];

/** The one route table of the shop (SPEC.md section 2). */
export const routes: RouteObject[] = [{
  path: "/",
  element: <RootLayout />,
  errorElement: <RouteError />,
  children: [
    lazyPage("/", async () => (await import("../features/content/home_page.tsx")).HomePage),
    lazyPage("/shop", async () => (await import("../features/catalog/shop_page.tsx")).ShopPage),
    lazyPage(
      "/contact",
      async () => (await import("../features/content/contact_page.tsx")).ContactPage,
    ),
    lazyPage(
      "/testers/custom",
      async () =>
        (await import("../features/configurator/custom_tester_page.tsx")).CustomTesterPage,
    ),
    lazyPage(
      "/testers/fidget-cube",
      async () => (await import("../features/configurator/fidget_cube_page.tsx")).FidgetCubePage,
    ),
    ...PACK_SLUGS.map((slug) =>
      lazyPage(`/testers/${slug}`, async () => {
        const { PackPage } = await import("../features/catalog/pack_page.tsx");
        return function Pack() {
          return <PackPage slug={slug} />;
        };
      })
    ),
    lazyPage("/cart", async () => (await import("../features/cart/cart_page.tsx")).CartPage),
    lazyPage("/login", async () => (await import("../features/account/login_page.tsx")).LoginPage),
    lazyPage(
      "/register",
      async () => (await import("../features/account/register_page.tsx")).RegisterPage,
    ),
    lazyPage(
      "/restore-password",
      async () =>
        (await import("../features/account/restore_password_page.tsx")).RestorePasswordPage,
    ),
    lazyPage(
      "/account/orders",
      async () => (await import("../features/account/my_orders_page.tsx")).MyOrdersPage,
    ),
    lazyPage(
      "/checkout",
      async () => (await import("../features/checkout/checkout_page.tsx")).CheckoutPage,
    ),
    lazyPage(
      "/completion",
      async () => (await import("../features/checkout/completion_page.tsx")).CompletionPage,
    ),
    lazyPage(
      "/order-success",
      async () => (await import("../features/orders/order_page.tsx")).OrderPage,
    ),
    lazyPage(
      "/order/track/:orderNumber",
      async () => (await import("../features/orders/order_page.tsx")).OrderPage,
    ),
    lazyPage("/tos", async () => (await import("../features/content/tos_page.tsx")).TosPage),
    lazyPage(
      "/refund-policy",
      async () => (await import("../features/content/refund_policy_page.tsx")).RefundPolicyPage,
    ),
    lazyPage(
      "/privacy-policy",
      async () => (await import("../features/content/privacy_policy_page.tsx")).PrivacyPolicyPage,
    ),
    lazyPage(
      "/shipping-policy",
      async () => (await import("../features/content/shipping_policy_page.tsx")).ShippingPolicyPage,
    ),
    lazyPage("/faq", async () => (await import("../features/content/faq_page.tsx")).FaqPage),
    lazyPage(
      "/friendly-gift-guide",
      async () => (await import("../features/content/gift_guide_page.tsx")).GiftGuidePage,
    ),
    lazyPage("/admin", async () => (await import("../features/admin/admin_page.tsx")).AdminPage),
    lazyPage(
      "*",
      async () => (await import("../features/content/not_found_page.tsx")).NotFoundPage,
    ),
  ],
}];

/** Creates the browser router. */
export function createRouter() {
  return createBrowserRouter(routes);
}
