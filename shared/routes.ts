import { SHOP_NAME } from "./policy.ts";

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
}

/** All pages, in navigation order. */
export const PAGES: readonly PageInfo[] = [
  page(
    "/",
    "Keyboard switch testers",
    "3D-printed keyboard switch testers: themed packs, custom testers with 100+ real switches and a fidget cube. Starting at $9.99.",
    true,
  ),
  page("/shop", "Shop", "All switch testers, custom builders and cases in one place.", true),
  page(
    "/contact",
    "Contact",
    "Write to the shop: questions about orders, switches or custom work.",
    true,
  ),
  page(
    "/testers/custom",
    "Custom switch tester",
    "Pick 10, 15 or 20 switches from 100+ real switches for your own tester.",
    true,
  ),
  page(
    "/testers/fidget-cube",
    "Custom fidget cube",
    "Build a fidget cube with six switches of your choice.",
    true,
  ),
  page(
    "/testers/starter-pack",
    "Starter Pack",
    "Ten switches that show the range of linear, tactile and clicky feel.",
    true,
  ),
  page(
    "/testers/popular",
    "Popular Pack",
    "The ten switches keyboard builders ask about most.",
    true,
  ),
  page(
    "/testers/unique",
    "Unique Kit",
    "Ten unusual switches you will not find in a store keyboard.",
    true,
  ),
  page("/testers/linear", "Linear Collection", "Ten smooth linear switches side by side.", true),
  page(
    "/testers/tactile",
    "Tactile Collection",
    "Ten tactile switches from gentle to pronounced bumps.",
    true,
  ),
  page(
    "/testers/aesthetic",
    "Aesthetic Pack",
    "Ten switches chosen for their colours and housings.",
    true,
  ),
  page("/cart", "Cart", "Your cart.", false),
  page("/login", "Sign in", "Sign in to your account.", false),
  page("/register", "Create account", "Create an account.", false),
  page("/restore-password", "Restore password", "How to get back into your account.", false),
  page("/checkout", "Checkout", "Pay for your order.", false),
  page("/order-success", "Order", "Your order.", false),
  page("/order/track/:orderNumber", "Track your order", "Where your order is.", false),
  page("/completion", "Payment complete", "Your payment.", false),
  page("/demo-checkout/:sessionId", "Demo checkout", "Pay for your order (demo payments).", false),
  page("/account/orders", "My orders", "Your orders.", false),
  page("/tos", "Terms of service", "The terms of sale of the shop.", true),
  page("/refund-policy", "Refund policy", "Cancellations and refunds.", true),
  page("/privacy-policy", "Privacy policy", "What data the shop keeps and why.", true),
  page(
    "/shipping-policy",
    "Shipping policy",
    "Processing times, delivery times and shipping prices.",
    true,
  ),
  page("/faq", "FAQ", "Answers to the questions shoppers ask most.", true),
  page(
    "/friendly-gift-guide",
    "Gift guide",
    "A short quiz that finds the right switch tester for a gift.",
    true,
  ),
  page("/admin", "Admin", "Shop administration.", false),
];

function page(path: string, title: string, description: string, isPublic: boolean): PageInfo {
  return { path, title, description, public: isPublic };
}

/** The document title of a page: its own title, then the shop's name. */
export function pageTitle(title: string): string {
  return `${title} | ${SHOP_NAME}`;
}

/** The page whose pattern matches a path, if any. */
export function findPage(pathname: string): PageInfo | undefined {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return PAGES.find((p) => matches(p.path, clean));
}

function matches(pattern: string, pathname: string): boolean {
  const a = pattern.split("/");
  const b = pathname.split("/");
  if (a.length !== b.length) return false;
  return a.every((part, i) => part.startsWith(":") ? b[i].length > 0 : part === b[i]);
}
