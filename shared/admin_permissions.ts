/**
 * The role policy of the dashboard, in one table both sides read: what each role may do
 * (capabilities) and what each /api/admin route needs. The server refuses a request whose role
 * lacks the route's capability (server/middleware/admin_roles.ts); the dashboard shows only the
 * tabs and buttons a role can use. Deny by default: a route missing from the table is the
 * owner's alone, so a new route is never opened to staff by forgetting it here.
 */
import { type Role, ROLES } from "./roles.ts";

/** Everything the dashboard lets someone do, each given to roles below. */
export const CAPABILITIES = [
  // Both roles: the dashboard itself and one's own sign-in security.
  "dashboard",
  "own_security",
  // Staff too: the orders' daily work and the shelf counts.
  "orders",
  "shipping",
  "print_day",
  "packing_slips",
  "email_resends",
  "inventory_counts",
  // The owner alone.
  "order_cancels",
  "customer_exports",
  "sales",
  "catalog",
  "prices",
  "promos",
  "notice",
  "settings",
  "staff",
  "api_keys",
  "audit",
  // A route missing from the table (deny by default).
  "unlisted",
] as const;

/** One thing a role may do. */
export type Capability = (typeof CAPABILITIES)[number];

const STAFF_CAPABILITIES: readonly Capability[] = [
  "dashboard",
  "own_security",
  "orders",
  "shipping",
  "print_day",
  "packing_slips",
  "email_resends",
  "inventory_counts",
];

/** What each role may do: the owner everything, staff the orders' daily work. */
export const ROLE_CAPABILITIES: Record<Role, readonly Capability[]> = {
  owner: CAPABILITIES,
  staff: STAFF_CAPABILITIES,
};

/** Whether `role` may do `capability`. */
export function roleCan(role: Role, capability: Capability): boolean {
  return ROLE_CAPABILITIES[role].includes(capability);
}

/**
 * What belongs to a person, never to an API key: a script's key has no second factors or
 * sessions of its own to change, whatever its role.
 */
export const PERSON_ONLY: readonly Capability[] = ["own_security"];

/**
 * What one caller may do: its role's capabilities, less a person's own for an API key. The
 * session view answers this, so the dashboard opened with a key offers no tab the server refuses.
 */
export function actorCapabilities(
  actor: { kind: "owner" | "staff" | "key"; role: Role },
): Capability[] {
  return ROLE_CAPABILITIES[actor.role].filter((c) =>
    actor.kind !== "key" || !PERSON_ONLY.includes(c)
  );
}

/** The least powerful role that has `capability` (ROLES lists the most powerful first). */
export function roleNeededFor(capability: Capability): Role {
  return [...ROLES].reverse().find((role) => roleCan(role, capability)) ?? "owner";
}

/** What a capability lets one do, as the refusal says it: "Only the owner can {this}." */
export const CAPABILITY_ACTIONS: Record<Capability, string> = {
  dashboard: "open the dashboard",
  own_security: "change their own sign-in security",
  orders: "see and change orders",
  shipping: "ship orders",
  print_day: "see the print day",
  packing_slips: "print packing slips",
  email_resends: "see and resend emails",
  inventory_counts: "count the inventory",
  order_cancels: "cancel and refund orders",
  customer_exports: "export customers' details",
  sales: "see the sales figures",
  catalog: "edit the catalogue",
  prices: "edit prices",
  promos: "manage promo codes",
  notice: "change the site notice",
  settings: "use the Test tab",
  staff: "manage staff",
  api_keys: "manage API keys",
  audit: "read the audit log",
  unlisted: "do this",
};

/** A route needs a capability, or no sign-in at all (the sign-in routes themselves). */
export type RouteNeed = Capability | "signed_out";

/** One admin route: its method, its path as the server registers it (`:param`), its need. */
export interface AdminRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  needs: RouteNeed;
}

/**
 * Every admin route and what it needs. The walk of every registered route
 * (tests/api/admin_roles_test.ts) fails on an admin route missing here.
 */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
  // Signing in and out.
  { method: "POST", path: "/api/admin/verify", needs: "signed_out" },
  { method: "POST", path: "/api/admin/logout", needs: "signed_out" },
  // The sign-in's second step and passwordless passkey sign-in come before any session.
  { method: "POST", path: "/api/admin/verify/second-factor/options", needs: "signed_out" },
  { method: "POST", path: "/api/admin/verify/second-factor", needs: "signed_out" },
  { method: "POST", path: "/api/admin/passkey-sign-in/options", needs: "signed_out" },
  { method: "POST", path: "/api/admin/passkey-sign-in", needs: "signed_out" },
  // A person's own second factors (an API key has none: admin_roles.ts refuses it).
  { method: "GET", path: "/api/admin/factors", needs: "own_security" },
  { method: "POST", path: "/api/admin/factors/totp", needs: "own_security" },
  { method: "POST", path: "/api/admin/factors/totp/confirm", needs: "own_security" },
  { method: "DELETE", path: "/api/admin/factors/totp", needs: "own_security" },
  { method: "POST", path: "/api/admin/factors/recovery-codes", needs: "own_security" },
  { method: "POST", path: "/api/admin/factors/passkeys/options", needs: "own_security" },
  { method: "POST", path: "/api/admin/factors/passkeys", needs: "own_security" },
  { method: "DELETE", path: "/api/admin/factors/passkeys/:id", needs: "own_security" },
  // Requiring a second factor of every staff account is the owner's, as staff are.
  { method: "GET", path: "/api/admin/settings/security", needs: "staff" },
  { method: "PUT", path: "/api/admin/settings/security", needs: "staff" },
  { method: "GET", path: "/api/admin/session", needs: "dashboard" },
  { method: "GET", path: "/api/test/ping", needs: "dashboard" },
  { method: "GET", path: "/api/test/test_email", needs: "settings" },
  // Orders: found, tracked, shipped, delivered by staff; cancelled (refunded) by the owner.
  { method: "GET", path: "/api/admin/orders", needs: "orders" },
  { method: "GET", path: "/api/admin/orders/new/csv", needs: "customer_exports" },
  { method: "POST", path: "/api/admin/orders/ship-processed", needs: "shipping" },
  { method: "POST", path: "/api/admin/orders/:orderNumber/tracking", needs: "shipping" },
  { method: "POST", path: "/api/admin/orders/:orderNumber/delivered", needs: "shipping" },
  { method: "POST", path: "/api/admin/orders/:orderNumber/cancel", needs: "order_cancels" },
  { method: "GET", path: "/api/admin/pick-list", needs: "print_day" },
  { method: "GET", path: "/api/admin/sales", needs: "sales" },
  // What to print or buy next: read from the sales and the demand, so the owner's, as sales are.
  { method: "GET", path: "/api/admin/restock", needs: "sales" },
  // The shelf counts.
  { method: "GET", path: "/api/admin/inventory", needs: "inventory_counts" },
  { method: "PUT", path: "/api/admin/inventory/switches/:id", needs: "inventory_counts" },
  { method: "PUT", path: "/api/admin/inventory/components/:name", needs: "inventory_counts" },
  // The outbox: staff see why a customer's email did not arrive and send it again.
  { method: "GET", path: "/api/admin/emails", needs: "email_resends" },
  { method: "GET", path: "/api/admin/emails/health", needs: "email_resends" },
  { method: "POST", path: "/api/admin/emails/:id/resend", needs: "email_resends" },
  // The catalogue: its records carry the prices, so every edit is the owner's.
  { method: "GET", path: "/api/admin/catalog/switches", needs: "catalog" },
  { method: "POST", path: "/api/admin/catalog/switches", needs: "catalog" },
  { method: "PATCH", path: "/api/admin/catalog/switches/:id", needs: "prices" },
  { method: "GET", path: "/api/admin/catalog/packs", needs: "catalog" },
  { method: "PATCH", path: "/api/admin/catalog/packs/:id", needs: "prices" },
  { method: "GET", path: "/api/admin/catalog/items", needs: "catalog" },
  { method: "PATCH", path: "/api/admin/catalog/items/:id", needs: "prices" },
  { method: "PUT", path: "/api/admin/catalog/:kind/:id/image", needs: "catalog" },
  { method: "DELETE", path: "/api/admin/catalog/:kind/:id/image", needs: "catalog" },
  { method: "GET", path: "/api/admin/catalog/history", needs: "catalog" },
  // Drops: a limited run's units, opening and limits are the catalogue's, so the owner's; its
  // live view shows sales figures, so it is the owner's too.
  { method: "GET", path: "/api/admin/drops", needs: "catalog" },
  { method: "POST", path: "/api/admin/drops", needs: "catalog" },
  { method: "GET", path: "/api/admin/drops/:id", needs: "catalog" },
  { method: "DELETE", path: "/api/admin/drops/:id", needs: "catalog" },
  { method: "GET", path: "/api/admin/promos", needs: "promos" },
  { method: "POST", path: "/api/admin/promos", needs: "promos" },
  { method: "PATCH", path: "/api/admin/promos/:code", needs: "promos" },
  { method: "GET", path: "/api/admin/notice", needs: "notice" },
  { method: "PUT", path: "/api/admin/notice", needs: "notice" },
  // People and scripts (the staff routes are the contract's, built beside this table).
  { method: "GET", path: "/api/admin/api-keys", needs: "api_keys" },
  { method: "POST", path: "/api/admin/api-keys", needs: "api_keys" },
  { method: "DELETE", path: "/api/admin/api-keys/:id", needs: "api_keys" },
  { method: "GET", path: "/api/admin/staff", needs: "staff" },
  { method: "POST", path: "/api/admin/staff", needs: "staff" },
  { method: "PATCH", path: "/api/admin/staff/:id", needs: "staff" },
  { method: "DELETE", path: "/api/admin/staff/:id", needs: "staff" },
  // Every account's own sessions (everyone's, `?all=1`, is checked as the owner's where listed).
  { method: "GET", path: "/api/admin/sessions", needs: "own_security" },
  { method: "DELETE", path: "/api/admin/sessions/:id", needs: "own_security" },
  // The invitation link's page: the token is the credential.
  { method: "POST", path: "/api/admin/invite/accept", needs: "signed_out" },
  { method: "GET", path: "/api/admin/audit", needs: "audit" },
  { method: "GET", path: "/api/admin/audit/actors", needs: "audit" },
  { method: "GET", path: "/api/admin/audit.csv", needs: "audit" },
];

/** A route's path pattern as a regular expression over a request's path. */
function patternOf(path: string): RegExp {
  const escaped = path.split("/").map((part) =>
    part.startsWith(":") ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  );
  return new RegExp(`^${escaped.join("/")}/?$`);
}

const MATCHERS = ADMIN_ROUTES.map((route) => ({ route, pattern: patternOf(route.path) }));

/**
 * What a request needs, by its method and path: its route's need, a literal path before a
 * pattern's (`/orders/new/csv` is not an order number), and `unlisted`, the owner's alone, when no
 * route matches (deny by default). HEAD is a GET.
 */
export function routeNeed(method: string, path: string): RouteNeed {
  const wanted = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  const matches = MATCHERS.filter((m) => m.route.method === wanted && m.pattern.test(path));
  const best = matches.find((m) => !m.route.path.includes(":")) ?? matches[0];
  return best?.route.needs ?? "unlisted";
}

/** The refusal's sentence, naming the role needed: "Only the owner can edit prices." */
export function refusalFor(capability: Capability): string {
  const role = roleNeededFor(capability);
  const who = role === "owner" ? "the owner" : `the ${role} role`;
  return `Only ${who} can ${CAPABILITY_ACTIONS[capability]}.`;
}
