import { SHOP_NAME, STARTING_PRICE_TEXT } from "./policy.ts";
import { BUILD_LINK_PARAMS } from "./build_link.ts";

/**
 * Every page of the shop with its document title and meta description. The server uses the list
 * to answer unknown pages with 404 (still the app, which shows its not-found page) and to write the
 * sitemap; the client uses it for titles.
 */
export interface PageInfo {
  /** react-router style pattern. */
  path: string;
  title: string;
  description: string;
  /** Listed in the sitemap and open to search engines. */
  public: boolean;
  /** The page's lazily loaded module under client/features/, which the server preloads. */
  module: string;
  /**
   * Rendered on the server (and hydrated): every public page, the cart and order tracking. The
   * others (admin, checkout, account) depend on who is signed in and render in the browser.
   */
  serverRendered: boolean;
  /**
   * The query parameters the page reads (none when absent). A rendered page is kept per page and
   * these (shared/page_url.ts): any other parameter is never read, so it never costs a render.
   * tests/unit/page_url_test.ts fails when a page module reads one not listed here.
   */
  query?: readonly string[];
}

/** What the order page reads besides its path: a payment's session, or an order's number. */
const ORDER_PAGE_QUERY = ["order", "session_id"] as const;

/** All pages, in navigation order. */
export const PAGES: readonly PageInfo[] = [
  page(
    "/",
    "Keyboard switch testers",
    `3D-printed keyboard switch testers: themed packs, custom testers with 100+ real switches and a fidget cube. ${STARTING_PRICE_TEXT}.`,
    true,
    "content/home_page.tsx",
  ),
  page(
    "/shop",
    "Shop",
    "All switch testers, custom builders and cases in one place.",
    true,
    "catalog/shop_page.tsx",
  ),
  page(
    "/contact",
    "Contact",
    "Write to the shop: questions about orders, switches or custom work.",
    true,
    "content/contact_page.tsx",
  ),
  page(
    "/testers/custom",
    "Custom switch tester",
    "Pick 10, 15 or 20 switches from 100+ real switches for your own tester.",
    true,
    "configurator/custom_tester_page.tsx",
    BUILD_LINK_PARAMS,
  ),
  page(
    "/testers/fidget-cube",
    "Custom fidget cube",
    "Build a fidget cube with six switches of your choice.",
    true,
    "configurator/fidget_cube_page.tsx",
    BUILD_LINK_PARAMS,
  ),
  page(
    "/testers/starter-pack",
    "Starter Pack",
    "Ten switches that show the range of linear, tactile and clicky feel.",
    true,
    "catalog/pack_page.tsx",
  ),
  page(
    "/testers/popular",
    "Popular Pack",
    "The ten switches keyboard builders ask about most.",
    true,
    "catalog/pack_page.tsx",
  ),
  page(
    "/testers/unique",
    "Unique Kit",
    "Ten unusual switches you will not find in a store keyboard.",
    true,
    "catalog/pack_page.tsx",
  ),
  page(
    "/testers/linear",
    "Linear Collection",
    "Ten smooth linear switches side by side.",
    true,
    "catalog/pack_page.tsx",
  ),
  page(
    "/testers/tactile",
    "Tactile Collection",
    "Ten tactile switches from gentle to pronounced bumps.",
    true,
    "catalog/pack_page.tsx",
  ),
  page(
    "/testers/aesthetic",
    "Aesthetic Pack",
    "Ten switches chosen for their colours and housings.",
    true,
    "catalog/pack_page.tsx",
  ),
  { ...page("/cart", "Cart", "Your cart.", false, "cart/cart_page.tsx"), serverRendered: true },
  page("/login", "Sign in", "Sign in to your account.", false, "account/login_page.tsx"),
  page("/register", "Create account", "Create an account.", false, "account/register_page.tsx"),
  page(
    "/restore-password",
    "Restore password",
    "How to get back into your account.",
    false,
    "account/restore_password_page.tsx",
    ["token"],
  ),
  page("/checkout", "Checkout", "Pay for your order.", false, "checkout/checkout_page.tsx"),
  page("/order-success", "Order", "Your order.", false, "orders/order_page.tsx", ORDER_PAGE_QUERY),
  {
    ...page(
      "/order/track/:orderNumber",
      "Track your order",
      "Where your order is.",
      false,
      "orders/order_page.tsx",
      ORDER_PAGE_QUERY,
    ),
    serverRendered: true,
  },
  page(
    "/completion",
    "Payment complete",
    "Your payment.",
    false,
    "checkout/completion_page.tsx",
    ["payment_intent", "redirect_status"],
  ),
  page(
    "/demo-checkout/:sessionId",
    "Demo checkout",
    "Pay for your order (demo payments).",
    false,
    "checkout/demo_checkout_page.tsx",
  ),
  page("/account/orders", "My orders", "Your orders.", false, "account/my_orders_page.tsx"),
  page("/tos", "Terms of service", "The terms of sale of the shop.", true, "content/tos_page.tsx"),
  page(
    "/refund-policy",
    "Refund policy",
    "Cancellations and refunds.",
    true,
    "content/refund_policy_page.tsx",
  ),
  page(
    "/privacy-policy",
    "Privacy policy",
    "What data the shop keeps and why.",
    true,
    "content/privacy_policy_page.tsx",
  ),
  page(
    "/shipping-policy",
    "Shipping policy",
    "Processing times, delivery times and shipping prices.",
    true,
    "content/shipping_policy_page.tsx",
  ),
  page("/faq", "FAQ", "Answers to the questions shoppers ask most.", true, "content/faq_page.tsx"),
  page(
    "/friendly-gift-guide",
    "Gift guide",
    "A short quiz that finds the right switch tester for a gift.",
    true,
    "content/gift_guide_page.tsx",
  ),
  {
    // Rendered on the server (the drop and its countdown are everyone's), never listed: a
    // waiting room lasts minutes, and the place in it lives in the shopper's browser.
    ...page(
      "/drops/:id",
      "Waiting room",
      "Waiting room",
      false,
      "drops/waiting_room_page.tsx",
      ["target"],
    ),
    serverRendered: true,
  },
  page("/admin", "Admin", "Shop administration.", false, "admin/admin_page.tsx", ["token"]),
];

function page(
  path: string,
  title: string,
  description: string,
  isPublic: boolean,
  module: string,
  query?: readonly string[],
): PageInfo {
  return {
    path,
    title,
    description,
    public: isPublic,
    module,
    serverRendered: isPublic,
    ...(query ? { query } : {}),
  };
}

/** The document title of a page: its own title, then the shop's name. */
export function pageTitle(title: string): string {
  return `${title} | ${SHOP_NAME}`;
}

/** A path without its trailing slashes ("/" stays "/"), in one pass over them. */
export function withoutTrailingSlashes(pathname: string): string {
  // A loop, not /\/+$/: that pattern backtracks over every run of slashes, and a path of
  // 40,000 slashes and a letter took seconds of the only thread.
  let end = pathname.length;
  while (end > 1 && pathname.charCodeAt(end - 1) === 47) end--;
  return pathname.slice(0, end);
}

/** A page and the path the shop writes for it. */
export interface PageMatch {
  page: PageInfo;
  /**
   * The page's own path: its pattern's literal parts as written in PAGES, its parameters' parts
   * as they were sent (an order's number keeps its case and encoding).
   */
  path: string;
}

/** One segment of a path, decoded as the browser's router decodes it; as sent if malformed. */
function decoded(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The page a path shows, matched as the browser's router matches it (react-router: letters in
 * any case, each segment decoded, trailing slashes ignored), and that page's own path. The server
 * takes both from here, so the page it renders, the URL it keeps it under and the page the
 * browser then hydrates are one.
 */
export function matchPage(pathname: string): PageMatch | undefined {
  const sent = withoutTrailingSlashes(pathname).split("/");
  for (const page of PAGES) {
    const pattern = page.path.split("/");
    if (pattern.length !== sent.length) continue;
    const fits = pattern.every((part, i) =>
      part.startsWith(":")
        ? sent[i].length > 0
        : part.toLowerCase() === decoded(sent[i]).toLowerCase()
    );
    if (!fits) continue;
    const path = pattern.map((part, i) => part.startsWith(":") ? sent[i] : part).join("/");
    return { page, path };
  }
  return undefined;
}

/** The page whose pattern matches a path, if any (matchPage). */
export function findPage(pathname: string): PageInfo | undefined {
  return matchPage(pathname)?.page;
}
