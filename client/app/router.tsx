import { type ComponentType, lazy, type LazyExoticComponent } from "react";
import { Route, Routes } from "react-router-dom";
import { PACK_INFO } from "../../shared/catalog/pack_info.ts";
import { RootLayout } from "./layout/root_layout.tsx";

/**
 * Declarative routes (BrowserRouter + Routes) rather than a data router: the shop loads its data
 * in its pages, and leaving the data router out keeps about 10 KB gzip off every first load.
 */

/** A page whose code is fetched the first time its route is visited. */
function page(load: () => Promise<ComponentType>): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: await load() }));
}

const HomePage = page(async () => (await import("../features/content/home_page.tsx")).HomePage);
const ShopPage = page(async () => (await import("../features/catalog/shop_page.tsx")).ShopPage);
const ContactPage = page(async () =>
  (await import("../features/content/contact_page.tsx")).ContactPage
);
const CustomTesterPage = page(async () =>
  (await import("../features/configurator/custom_tester_page.tsx")).CustomTesterPage
);
const FidgetCubePage = page(async () =>
  (await import("../features/configurator/fidget_cube_page.tsx")).FidgetCubePage
);
const PackPage = lazy(async () => ({
  default: (await import("../features/catalog/pack_page.tsx")).PackPage,
}));
const CartPage = page(async () => (await import("../features/cart/cart_page.tsx")).CartPage);
const LoginPage = page(async () => (await import("../features/account/login_page.tsx")).LoginPage);
const RegisterPage = page(async () =>
  (await import("../features/account/register_page.tsx")).RegisterPage
);
const RestorePasswordPage = page(async () =>
  (await import("../features/account/restore_password_page.tsx")).RestorePasswordPage
);
const MyOrdersPage = page(async () =>
  (await import("../features/account/my_orders_page.tsx")).MyOrdersPage
);
const CheckoutPage = page(async () =>
  (await import("../features/checkout/checkout_page.tsx")).CheckoutPage
);
const CompletionPage = page(async () =>
  (await import("../features/checkout/completion_page.tsx")).CompletionPage
);
const DemoCheckoutPage = page(async () =>
  (await import("../features/checkout/demo_checkout_page.tsx")).DemoCheckoutPage
);
const OrderPage = page(async () => (await import("../features/orders/order_page.tsx")).OrderPage);
const TosPage = page(async () => (await import("../features/content/tos_page.tsx")).TosPage);
const RefundPolicyPage = page(async () =>
  (await import("../features/content/refund_policy_page.tsx")).RefundPolicyPage
);
const PrivacyPolicyPage = page(async () =>
  (await import("../features/content/privacy_policy_page.tsx")).PrivacyPolicyPage
);
const ShippingPolicyPage = page(async () =>
  (await import("../features/content/shipping_policy_page.tsx")).ShippingPolicyPage
);
const FaqPage = page(async () => (await import("../features/content/faq_page.tsx")).FaqPage);
const GiftGuidePage = page(async () =>
  (await import("../features/content/gift_guide_page.tsx")).GiftGuidePage
);
const WaitingRoomPage = page(async () =>
  (await import("../features/drops/waiting_room_page.tsx")).WaitingRoomPage
);
const AdminPage = page(async () => (await import("../features/admin/admin_page.tsx")).AdminPage);
const NotFoundPage = page(async () =>
  (await import("../features/content/not_found_page.tsx")).NotFoundPage
);

/** The one route table of the shop (docs/product.md#screens). */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route path="/" element={<HomePage />} />
        <Route path="/shop" element={<ShopPage />} />
        <Route path="/contact" element={<ContactPage />} />
        <Route path="/testers/custom" element={<CustomTesterPage />} />
        <Route path="/testers/fidget-cube" element={<FidgetCubePage />} />
        {PACK_INFO.map(({ slug }) => (
          <Route key={slug} path={`/testers/${slug}`} element={<PackPage slug={slug} />} />
        ))}
        <Route path="/cart" element={<CartPage />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/restore-password" element={<RestorePasswordPage />} />
        <Route path="/account/orders" element={<MyOrdersPage />} />
        <Route path="/checkout" element={<CheckoutPage />} />
        <Route path="/completion" element={<CompletionPage />} />
        <Route path="/demo-checkout/:sessionId" element={<DemoCheckoutPage />} />
        <Route path="/order-success" element={<OrderPage />} />
        <Route path="/order/track/:orderNumber" element={<OrderPage />} />
        <Route path="/tos" element={<TosPage />} />
        <Route path="/refund-policy" element={<RefundPolicyPage />} />
        <Route path="/privacy-policy" element={<PrivacyPolicyPage />} />
        <Route path="/shipping-policy" element={<ShippingPolicyPage />} />
        <Route path="/faq" element={<FaqPage />} />
        <Route path="/friendly-gift-guide" element={<GiftGuidePage />} />
        <Route path="/drops/:id" element={<WaitingRoomPage />} />
        <Route path="/admin" element={<AdminPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
