/**
 * Shapes of API answers, declared once: the server builds them (with `satisfies`, so a change of
 * shape fails its type check) and the client reads them, so the two cannot drift apart unseen.
 */
import type { Region } from "./policy.ts";
import type { OrderStatus } from "./status.ts";
import type { Role } from "./roles.ts";
import type { Capability } from "./admin_permissions.ts";
import type { AuditKind } from "./audit.ts";

/** A postal address as orders keep it. */
export interface Address {
  street: string;
  apartment: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
}

/**
 * A switch as GET /api/switches lists it: the spec's fields and nothing derivable, since every
 * byte of this list is sent with each configurator visit (the client derives image URLs and cents).
 */
export interface SwitchView {
  id: number;
  name: string;
  brand: string;
  type: string;
  force: string;
  image: string;
  available: boolean;
  /** Dollars with two decimals; may be negative or zero. */
  extraPrice: number;
  referralLink: string;
  /** Only when the owner uploaded an image; otherwise the client derives it from `image`. */
  imageUrl?: string;
}

/** A product sold by id, as GET /api/products lists it. */
export interface ProductView {
  id: number;
  name: string;
  price: number;
  priceCents: number;
  image: string;
  imageUrl: string;
  path: string | null;
  packSlug: string | null;
  withKeycaps: boolean;
  available: boolean;
  /** False once the owner takes it off sale (GET /api/products lists only what is on sale). */
  onSale: boolean;
}

/** A themed pack page's data (GET /api/packs/{slug}; GET /api/packs lists those on sale). */
export interface PackView {
  id: number;
  idWithKeycaps: number;
  slug: string;
  title: string;
  description: string;
  image: string;
  imageUrl: string;
  basePrice: number;
  basePriceCents: number;
  priceWithKeycapsCents: number;
  switches: { id: number; name: string; brand: string; referralLink: string; imageUrl: string }[];
  /** False once the owner takes it off sale: the page still answers, to say it is not sold. */
  onSale: boolean;
}

/** A switch inside a configured cart line. */
export interface LineSwitch {
  id: number;
  name: string;
  brand: string;
  image: string;
  imageUrl: string;
  extraPrice: number;
  quantity: 1;
}

/** What a cart or order line is: a product sold by id, a custom tester or a fidget cube. */
export type LineKind = "product" | "custom" | "cube";

/** A cart line's item, priced by the server. */
export interface PricedItem {
  id: string;
  kind: LineKind;
  productId: number | null;
  name: string;
  price: number;
  priceCents: number;
  image: string;
  imageUrl: string;
  size: number | null;
  keycaps: string | null;
  bodyColor: string | null;
  switches: LineSwitch[];
  available: boolean;
  /** Dollars: what one unit cost when the line was added, when that differs from `price`. */
  priceChangedFrom: number | null;
  /**
   * Why the line cannot be bought at all (a retired switch, a pack or item taken off sale), for
   * the shopper; null when it is sold (`available` then says whether stock covers it).
   */
  unavailableReason: string | null;
  /**
   * The parts stock cannot cover at the line's quantity, so the shopper knows which switch or
   * component is short; empty when stock covers it or the line is not sold.
   */
  shortStock: ShortPart[];
}

/** A switch or component a cart line needs more of than is free. */
export interface ShortPart {
  /** "Gateron Oil King", "Small tester box". */
  name: string;
  /** Units free now (never negative). */
  available: number;
  /** Units the line needs at its quantity. */
  needed: number;
}

/** The cart as the API answers it. */
export interface CartView {
  id: string;
  items: { item: PricedItem; quantity: number }[];
  subtotal: number;
  subtotalCents: number;
  itemCount: number;
  lineCount: number;
}

/** The answer of an add: the cart and a message for a toast. */
export type CartAddResult = CartView & { message: string };

/** An order as its tracking page sees it: no full email or street address. */
export interface PublicOrderView {
  orderNumber: string;
  status: OrderStatus;
  progress: number;
  region: Region;
  email: string | null;
  customerName: string | null;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  items: {
    name: string;
    price: number;
    priceCents: number;
    quantity: number;
    imageUrl: string;
    size: number | null;
    keycaps: string | null;
    bodyColor: string | null;
    switches: { id: number; brand: string; name: string; image: string; imageUrl: string }[];
  }[];
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
  promoCode: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
  trackingText: string | null;
  paymentError: string | null;
  cancelReason: string | null;
  createdAt: string;
  /** Whether a payment can still be made (unpaid and the reservation holds). */
  awaitingPayment: boolean;
  /** Seconds left (server clock) on the stock hold of an order awaiting payment, else null. */
  holdSecondsLeft: number | null;
  /**
   * Minutes the shopper may add to the hold, once (POST /api/orders/{n}/extend-hold); null when
   * there is no hold or it was extended already.
   */
  holdExtendMinutes: number | null;
  /** A refund owed (pending) or paid back (refunded) for this order, else null. */
  refund: "pending" | "refunded" | null;
}

/** A switch inside an ordered tester or cube, as the admin sees it. */
export interface AdminOrderSwitch {
  id: number;
  brand: string;
  name: string;
  image: string;
  imageUrl: string;
}

/** One ordered line, as the admin sees it (money in dollars and cents). */
export interface AdminOrderItem {
  lineId: string;
  kind: LineKind;
  productId: number | null;
  name: string;
  price: number;
  priceCents: number;
  quantity: number;
  image: string;
  imageUrl: string;
  size: number | null;
  keycaps: string | null;
  bodyColor: string | null;
  switches: AdminOrderSwitch[];
}

/** An order as `GET /api/admin/orders` and the admin's order actions answer it. */
export interface AdminOrderView {
  orderNumber: string;
  status: OrderStatus;
  region: Region;
  email: string | null;
  customerName: string | null;
  shippingAddress: Address | null;
  items: AdminOrderItem[];
  trackingNumber: string | null;
  taxId: { type: string; value: string } | null;
  promoCode: string | null;
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
  cancelReason: string | null;
  /**
   * A refund owed and not yet accepted by the provider (pending), accepted and not final
   * (requested), on its way back (refunded), or failed at the provider (the owner was told);
   * else null.
   */
  refund: "pending" | "requested" | "refunded" | "failed" | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * Stock counts of one switch or component: `stock` is on the shelf and not yet sold, reserved
 * units included; `reserved` is held by unpaid checkouts; `available` is stock - reserved (never
 * below 0); `used` is sold.
 */
export interface StockCounts {
  stock: number;
  reserved: number;
  available: number;
  used: number;
}

/** What the inventory adds to the counts: the owner's low-stock level and the runway. */
export interface StockPlanning {
  /** The owner is emailed when available units fall to this or below. */
  lowStockAt: number;
  /** Available units are at or below `lowStockAt`. */
  low: boolean;
  /** Units sold by paid orders of the last 30 days (cancelled ones excluded). */
  soldLast30Days: number;
  /** Days the available units last at the last 30 days' rate; null when none sold. */
  runwayDays: number | null;
}

/** One switch of the inventory, with how many shoppers wait for it to be back. */
export type InventorySwitch = StockCounts & StockPlanning & {
  id: number;
  name: string;
  waiting: number;
};
/** One other component of the inventory. */
export type InventoryComponent = StockCounts & StockPlanning & { name: string };

/** `GET /api/admin/inventory`. */
export interface InventoryView {
  switches: InventorySwitch[];
  inventory: InventoryComponent[];
  /** Packs and items shoppers wait for (back-in-stock sign-ups), most awaited first. */
  waitingProducts: { id: number; name: string; waiting: number }[];
}

/** `GET /api/demo/checkout-sessions/{id}`: a hosted demo payment and its order. */
export interface DemoSessionView {
  id: string;
  status: "open" | "succeeded" | "canceled" | "refunded";
  region: Region;
  expiresAt: string | null;
  order: PublicOrderView;
}

/** The answer of a hosted checkout: the provider's page and the order it pays for. */
export interface HostedCheckoutView {
  url: string;
  orderNumber: string;
}

/** `POST /auth/login`: the session token and the cart the account now uses. */
export interface LoginAnswer {
  token: string;
  userId: string;
  email: string;
  cartId: string | null;
}

/** `POST /auth/register` (201). */
export interface RegisterAnswer {
  ok: true;
  userId: string;
}

/**
 * `POST /api/stock-alerts`. `checkInbox`: the sign-up is in force once its address confirms
 * (with a link emailed, or one sent before and not used yet), even if the address confirmed other
 * sign-ups before; false for a signed-in shopper's own address, in force at once. It says nothing about the address itself, whoever asks.
 */
export interface StockAlertAnswer {
  ok: true;
  checkInbox: boolean;
}

/** `GET /auth/me`. */
export interface AccountView {
  userId: string;
  email: string;
}

/** `POST /api/orders/create`: the embedded payment to confirm and the order's totals. */
export interface EmbeddedCheckoutView {
  /** The secret the provider's payment form in the browser confirms the payment with. */
  clientSecret: string;
  /** The same secret under the spec's name for it, kept for its clients. */
  stripeClientSecret: string;
  orderNumber: string;
  paymentIntentId: string;
  totals: PublicOrderView;
}

/** `POST /auth/create-payment-intent` when it creates a payment. */
export interface AccountPaymentView {
  clientSecret: string;
  orderNumber: string;
  paymentIntentId: string;
}

/** `GET /api/admin/session`: the session holds, and what every admin page must say. */
export interface AdminSessionView {
  ok: true;
  /** The shop runs on the demo provider: payments are simulated and no real money moves. */
  paymentsSimulated: boolean;
  /** Who is signed in: "owner", a staff member's id, or an API key's id. */
  accountId: string;
  /** What the dashboard calls them: "Owner", a member's email, a key's name. */
  name: string;
  role: Role;
  /** What the role may do (shared/admin_permissions.ts): the dashboard shows only these. */
  can: Capability[];
}

/** A script's API key in `GET /api/admin/api-keys`: never the key nor its hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  role: Role;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601; null: until revoked. */
  expiresAt: string | null;
  /** ISO 8601, to the minute; null: never used. */
  lastUsedAt: string | null;
  /** Who made it: "Owner", a member's email, a key's name. */
  createdBy: string;
  /**
   * The role it acts with now: its own, at most its member's current role; null once its member
   * was removed (the key is refused).
   */
  actsAs: Role | null;
}

/** `POST /api/admin/api-keys`: the key, shown here only, and the key as the list shows it. */
export interface CreatedApiKeyView extends ApiKeyView {
  key: string;
}

/** `POST /api/admin/verify`: signed in, or a second factor is asked for (no session yet). */
export type AdminVerifyAnswer =
  | { ok: true; mustEnrol?: true }
  | { ok: false; secondFactor: { challenge: string; methods: string[] } };

/** A staff member in `GET /api/admin/staff` (and the answer to an invitation or role change). */
export interface StaffMemberView {
  id: string;
  email: string;
  role: Role;
  /** Invited: the link is out and no password is set yet; active: they have signed up. */
  status: "invited" | "active";
  /** ISO times. */
  createdAt: string;
  lastSeenAt: string | null;
  /** Who sent the invitation ("Owner", or an owner-role member's email). */
  invitedBy: string;
}

/** A session in `GET /api/admin/sessions`. */
export interface AdminSessionItemView {
  /** A random id that ends the session through the API; never the cookie's token. */
  id: string;
  accountId: string;
  /** The account's name: "Owner" or the member's email. */
  name: string;
  device: string;
  address: string;
  createdAt: string;
  lastSeenAt: string;
  /** This is the session making the request. */
  current: boolean;
}

/** `POST /api/admin/invite/accept`: the password is set; the member signs in with it. */
export interface InviteAcceptView {
  ok: true;
  email: string;
}

/** `GET /api/payments/config` (and `POST /auth/create-payment-intent` with `{}`). */
export interface PaymentsConfigView {
  /** The provider's name, which picks its payment form in the browser. */
  provider: string;
  publishableKey: string | null;
  reservationMinutes?: number;
}

/** `POST /api/promo/validate`: the code's discount, and what it takes off the cart given. */
export interface PromoValidation {
  code: string;
  /** One of the two is set: a percentage of the subtotal, or an amount off it. */
  percentOff: number | null;
  amountOff: number | null;
  amountOffCents: number | null;
  discount: number;
  discountCents: number;
}

/** A promo code in `GET /api/admin/promos` and the answers of its POST and PATCH. */
export interface AdminPromoView {
  code: string;
  percentOff: number | null;
  /** Dollars. */
  amountOff: number | null;
  /** ISO 8601 (UTC); null: no limit. */
  startsAt: string | null;
  endsAt: string | null;
  maxUses: number | null;
  maxUsesPerEmail: number | null;
  /** Dollars. */
  minSubtotal: number | null;
  active: boolean;
  /** Paid orders that used it. */
  uses: number;
  /** Unpaid checkouts holding one of its limited uses. */
  held: number;
  createdAt: string;
  updatedAt: string;
  /** Send back as `version` with a PATCH: an edit made on an older copy is refused (409). */
  version: string;
}

/** A switch as the owner edits it: `GET /api/admin/catalog/switches` and its POST and PATCH. */
export interface AdminSwitchView {
  id: number;
  name: string;
  brand: string;
  type: string;
  force: string;
  /** Dollars; may be negative. */
  extraPrice: number;
  referralLink: string;
  image: string;
  imageUrl: string;
  /** Retired: not offered by the shop any more; past orders keep it. */
  retired: boolean;
  /** Units on the shelf (reserved ones included) and units a checkout could take now. */
  stock: number;
  available: number;
  /** Send back as `version` with a PATCH: an edit made on an older copy is refused (409). */
  version: string;
}

/** A pack as the owner edits it: `GET /api/admin/catalog/packs` and its PATCH. */
export interface AdminPackView extends PackView {
  switchIds: number[];
  /** Dollars; always the base price + $2.00. */
  priceWithKeycaps: number;
  version: string;
}

/** An item (layout tester, cube case): `GET /api/admin/catalog/items` and its PATCH. */
export interface AdminItemView {
  id: number;
  name: string;
  price: number;
  priceCents: number;
  image: string;
  imageUrl: string;
  onSale: boolean;
  version: string;
}

/** One entry of `GET /api/admin/catalog/history`, newest first. */
export interface CatalogEditView {
  id: string;
  /** ISO 8601 (UTC). */
  at: string;
  kind: "switch" | "pack" | "item" | "promo" | "notice" | "image";
  /** The edited record's id (a switch or product id, a promo code, "notice"). */
  target: string;
  /** What the record was called when edited ("Gateron Oil King"), when it has a name. */
  label: string | null;
  /** "created", "updated", "retired", "restored", ... */
  action: string;
  /** Each changed field, in the API's units (dollars, ISO dates); `from` is null on creation. */
  changes: { field: string; from: unknown; to: unknown }[];
  /**
   * The name of each switch id its changes mention (a pack's switches): as it was called at the
   * edit, else now, else "switch #150 (removed)". Empty when it mentions none.
   */
  names: Record<string, string>;
}

/**
 * `GET /api/admin/audit`: one recorded action, newest first (the cursor of the next, older page
 * is in the X-Next-Cursor header). `GET /api/admin/audit/actors` lists the actors seen.
 */
export interface AuditEntryView {
  id: string;
  /** ISO 8601 (UTC). */
  at: string;
  /** The owner, a staff member (by email) or an API key (by its name). */
  actor: { kind: "owner" | "staff" | "key"; id: string; name: string };
  /** The client's address. */
  from: string;
  kind: AuditKind;
  /** A dotted name: "order.shipped", "switch.updated", "export.orders_csv". */
  action: string;
  /** What it was done to: an order number, a switch id, a promo code. */
  target?: string;
  /** What the target was called then ("Gateron Oil King"). */
  label?: string;
  /** Each changed field's old and new value (old null on creation). */
  changes?: Record<string, { from: unknown; to: unknown }>;
  /** Anything else worth a line: an export's row count. */
  detail?: string;
}

/** `GET /api/admin/audit/actors`: someone with an entry in the log. */
export interface AuditActorView {
  kind: "owner" | "staff" | "key";
  id: string;
  name: string;
}

/** `GET /api/notice`: the red banner on every page. */
export interface NoticeView {
  text: string;
  active: boolean;
}

/** `GET /api/admin/notice` and the answer of `PUT /api/admin/notice`. */
export interface AdminNoticeView extends NoticeView {
  updatedAt: string | null;
  /** Send back as `version` with a PUT: an edit made on an older copy is refused (409). */
  version: string | null;
}

/** `GET /api/orders/session/{sessionId}`: the order a payment session paid for. */
export interface PaymentSessionStatus {
  orderNumber: string;
  status: OrderStatus;
}

/** The demo provider's pay and confirm calls. */
export interface DemoPayAnswer {
  ok: true;
  orderNumber: string;
  status: OrderStatus;
  redirectUrl: string;
}

/** `GET /api/testers/{id}/availability` and `/api/items/{id}/availability`. */
export interface AvailabilityView {
  available: boolean;
}

/** `GET /api/admin/emails`: one email of the outbox, newest first. */
export interface AdminEmailView {
  id: string;
  to: string;
  subject: string;
  text: string;
  /** "pending" until delivered (a delivery under way is still pending), then sent or failed. */
  status: "pending" | "sent" | "failed";
  /** The last delivery error (kept while retrying, and on a failed email). */
  error: string | null;
  attempts: number;
  createdAt: string;
  sentAt: string | null;
}

/** `GET /api/admin/emails/health`: whether mail goes out, and what waits or gave up. */
export interface MailHealthView {
  /** The last delivery failed (null since: the last one went out). */
  failingSince: string | null;
  lastError: string | null;
  /** Emails not sent yet that are still being tried, and those that gave up. */
  waiting: number;
  failed: number;
}

/** `GET /api/admin/sales`: sales of a range of UTC days, money in dollars. */
export interface SalesView {
  days: { date: string; orders: number; revenue: number }[];
  totals: { orders: number; revenue: number; averageOrder: number };
  bestSellers: {
    packs: { name: string; quantity: number }[];
    switches: { id: number; name: string; quantity: number }[];
  };
  /** Orders and discount per promo code. */
  promoCodes: { code: string; orders: number; discount: number }[];
  /** Units and item revenue (before discount, shipping and tax) per kind of thing sold. */
  mix: { kind: "pack" | "custom" | "cube" | "item"; quantity: number; revenue: number }[];
}

/** `GET /api/admin/pick-list`: the parts of every paid, unshipped order. */
export interface PickListView {
  /** SMALL_BOX, LARGE_BOX, TRANSPARENT_KEYCAP, RANDOM_KEYCAP and "CUBE_BODY (colour)". */
  components: { name: string; quantity: number }[];
  /** By brand, then name. */
  switches: { id: number; name: string; quantity: number }[];
}

/** `POST /api/admin/orders/ship-processed` with a chosen set. */
export interface ShipChosenView {
  shippedCount: number;
  skipped: { orderNumber: string; reason: string }[];
}

/** `GET /auth/me/export`: everything the shop keeps about a signed-in shopper. */
export interface MyDataExport {
  exportedAt: string;
  account: { userId: string; email: string; createdAt: string };
  /** Every shipping address of their orders, once each. */
  addresses: Address[];
  orders: {
    orderNumber: string;
    status: OrderStatus;
    createdAt: string;
    email: string | null;
    customerName: string | null;
    shippingAddress: Address | null;
    taxId: { type: string; value: string } | null;
    items: {
      name: string;
      quantity: number;
      priceCents: number;
      size: number | null;
      keycaps: string | null;
      bodyColor: string | null;
      switches: string[];
    }[];
    promoCode: string | null;
    totalCents: number;
    trackingNumber: string | null;
  }[];
}

/**
 * `GET /api/build-stock`: units a checkout could take now (on the shelf minus held by unpaid
 * checkouts, never negative) of every switch on sale and every component. With `?cartId=` it
 * also says what that cart's lines would use (`inCart`), which the configurators count as taken.
 */
export interface BuildStockView {
  switches: { id: number; available: number }[];
  components: { name: string; available: number }[];
  inCart?: {
    switches: { id: number; units: number }[];
    components: { name: string; units: number }[];
  };
}
