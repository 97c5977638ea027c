/**
 * Request shapes shared by the API (validation at the edge) and the client. Messages are written
 * for the person who will read them.
 */
import { z } from "zod";

// The browser runs under a CSP without 'unsafe-eval': zod must not probe for eval there (the probe
// is caught, but the browser reports the violation). The server keeps zod's compiled parsers.
if (typeof document !== "undefined") z.config({ jitless: true });
import { CONTACT_MESSAGE_MAX, MAX_LINE_QUANTITY } from "./policy.ts";
import { isCountryCode } from "./countries.ts";
import { ROLES } from "./roles.ts";
import { dropTicketSchema } from "./drops.ts";
import { AUDIT_KINDS, AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX } from "./audit.ts";
import {
  normaliseTrackingNumber,
  TRACKING_NUMBER_MAX,
  trackingNumberProblem,
} from "./tracking_number.ts";
import { EMAIL_MESSAGE, isStrongPassword, PASSWORD_MESSAGE, stripTags } from "./account_rules.ts";

export { EMAIL_MESSAGE, isStrongPassword, PASSWORD_MESSAGE, stripTags };
import {
  BODY_COLORS,
  CUBE_KEYCAPS,
  DEFAULT_BODY_COLOR,
  TESTER_KEYCAPS,
  TESTER_SIZES,
} from "./pricing.ts";

/**
 * A whole quantity, from JSON or from a query string. Only numbers and numeric text count: an empty
 * value, null or true is not silently read as 0 or 1 (which would remove a line or add one).
 */
const quantitySchema = z.preprocess(
  (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
  z.number({ error: "Quantity must be a number" }),
)
  .refine(Number.isFinite, "Quantity must be a number")
  .refine(Number.isInteger, "Quantity must be a whole number")
  .refine((n) => Math.abs(n) <= 1000, "Quantity is too large");

/** A product id from a path or query. */
export const idSchema = z.coerce.number({ error: "The id must be a number" })
  .refine((n) => Number.isSafeInteger(n) && n > 0, "The id must be a positive whole number");

/** Query of POST /api/cart/add. */
export const simpleAddSchema = z.object({
  itemId: idSchema,
  quantity: quantitySchema.optional().default(1)
    .refine((n) => n >= 1, "Quantity must be at least 1")
    .refine((n) => n <= MAX_LINE_QUANTITY, `Quantity must be at most ${MAX_LINE_QUANTITY}`),
  cartId: z.string().max(64).optional(),
  /** A place in a drop's waiting room, when the item is part of a running drop. */
  ticket: dropTicketSchema.optional(),
});

const switchPick = z.object({
  id: z.number({ error: "Each switch needs a numeric id" }).int().positive(),
  quantity: z.literal(1, { error: "Each switch can be chosen once" }).optional(),
});

const bodyColor = z.enum(BODY_COLORS, { error: "Body colour must be white or black" })
  .nullish().transform((c) => c ?? DEFAULT_BODY_COLOR);

/** Body of POST /api/cart/add/tester: a custom tester or a fidget cube. */
export const testerAddSchema = z.discriminatedUnion("name", [
  z.object({
    cartId: z.string().max(64).nullish(),
    ticket: dropTicketSchema.nullish(),
    name: z.literal("Custom Switch Tester"),
    size: z.union(TESTER_SIZES.map((s) => z.literal(s)), {
      error: "Size must be 10, 15 or 20 switches",
    }),
    keycaps: z.enum(TESTER_KEYCAPS, { error: "Keycaps must be none, transparent or random" }),
    switches: z.array(switchPick).max(20, "A tester holds at most 20 switches"),
    quantity: quantitySchema.optional().default(1)
      .refine(
        (n) => n >= 1 && n <= MAX_LINE_QUANTITY,
        `Quantity must be 1 to ${MAX_LINE_QUANTITY}`,
      ),
    bodyColor,
  }),
  z.object({
    cartId: z.string().max(64).nullish(),
    ticket: dropTicketSchema.nullish(),
    name: z.literal("Custom Fidget Cube"),
    size: z.literal(6, { error: "A Fidget Cube holds exactly 6 switches" }).optional(),
    keycaps: z.enum(CUBE_KEYCAPS, { error: "Cube keycaps must be white or pastel" }),
    switches: z.array(switchPick).max(20, "A Fidget Cube holds 6 switches"),
    quantity: quantitySchema.optional().default(1)
      .refine(
        (n) => n >= 1 && n <= MAX_LINE_QUANTITY,
        `Quantity must be 1 to ${MAX_LINE_QUANTITY}`,
      ),
    bodyColor,
  }),
], { error: "name must be 'Custom Switch Tester' or 'Custom Fidget Cube'" });
export type TesterAddInput = z.infer<typeof testerAddSchema>;

/** Query of PUT /api/cart/{cartId}/items/{itemId}. */
export const quantityUpdateSchema = z.object({
  quantity: quantitySchema,
});

/**
 * Control characters, format characters (\p{Cf}: bidirectional marks, overrides and isolates
 * U+200E-F, U+202A-E, U+2066-9, U+061C; the invisible U+200B-D, U+2060-4, U+FEFF, the soft hyphen
 * U+00AD, tag characters) and the line and paragraph separators (U+2028-9) have no place in names,
 * addresses or subjects: they hide or reorder text in the admin, emails, labels and the CSV (a
 * name that reads one way and sorts or prints another), and a line break in an email subject would
 * start a new header (the separators break lines in editors, label printers and some JSON readers,
 * and \p{Cc} does not cover them). No name needs one: without the joiners a name in Persian or an
 * Indic script still reads right, only some ligatures are not drawn. Messages may keep tabs and
 * line breaks, and the two joiners (U+200C, U+200D), which emoji sequences (a family, a flag) and
 * Persian words use and which reorder nothing.
 */
const LINE_CONTROLS = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
const TEXT_CONTROLS = /(?![\t\n\r\u200c\u200d])[\p{Cc}\p{Cf}]/u;

/** What a field refused for LINE_CONTROLS or TEXT_CONTROLS says, after its name. */
const CONTROLS_MESSAGE = "cannot contain control characters or invisible formatting marks";

/**
 * Marks text a person typed and other people read (names, addresses, messages): stored as
 * typed, markup included, and escaped wherever it is shown. The hostile-input tests read it.
 */
export const FREE_TEXT = { freeText: true } as const;

/** One optional line of text a person typed: trimmed, bounded, without control characters. */
const line = (label: string, max: number) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !LINE_CONTROLS.test(v), `${label} ${CONTROLS_MESSAGE}`)
    .meta(FREE_TEXT);

/** Body of POST /api/sendMessage. The email is empty when the shopper writes anonymously. */
export const contactSchema = z.object({
  topic: z.string({ error: "Subject is required" }).trim().min(1, "Subject is required")
    .max(200, "Subject must be at most 200 characters")
    .refine((v) => !LINE_CONTROLS.test(v), `Subject ${CONTROLS_MESSAGE}`)
    .meta(FREE_TEXT),
  message: z.string({ error: "Message is required" }).trim().min(1, "Message is required")
    .max(CONTACT_MESSAGE_MAX, `Message must be at most ${CONTACT_MESSAGE_MAX} characters`)
    .refine((v) => !TEXT_CONTROLS.test(v), `Message ${CONTROLS_MESSAGE}`)
    .meta(FREE_TEXT),
  userEmail: z.union([
    z.literal(""),
    z.email("Please enter a valid email address").max(254),
  ]).nullish().transform((e) => e ?? ""),
  name: line("Name", 100).nullish().transform((n) => n ?? ""),
});

const text = (label: string, max: number) =>
  z.string({ error: `${label} is required` }).trim().min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((v) => !LINE_CONTROLS.test(v), `${label} ${CONTROLS_MESSAGE}`)
    .meta(FREE_TEXT);

/** A US ZIP code as the /checkout form sends it; a ZIP+4 is accepted too. */
const usZipCode = z.string({ error: "ZIP code is required" }).trim()
  .regex(/^\d{5}(-\d{4})?$/, "ZIP code must be 5 digits");

/** A US shipping address as the /checkout form sends it. */
const usAddressSchema = z.object({
  street: text("Address", 200),
  apartment: line("Apartment", 100).nullish().transform((a) => a ?? ""),
  city: text("City", 100),
  state: line("State", 50).nullish().transform((s) => s ?? ""),
  zipCode: usZipCode,
  country: z.literal("US", { error: "This checkout ships to the United States only" })
    .optional().default("US"),
});

/** Any shipping address (the international hosted checkout). */
const anyAddressSchema = z.object({
  street: text("Address", 200),
  apartment: line("Apartment", 100).nullish().transform((a) => a ?? ""),
  city: text("City", 100),
  state: line("State", 100).nullish().transform((s) => s ?? ""),
  zipCode: line("Postal code", 20).nullish().transform((p) => p ?? ""),
  country: z.string().trim().regex(/^[A-Z]{2}$/, "Country must be a two-letter code")
    .refine(isCountryCode, "Country must be the two-letter code of a real country"),
});

/** A promo code as typed: codes are letters, digits, dashes and underscores (spaces ignored). */
const promoCodeSchema = z.string().trim().max(40, "That promo code is too long")
  .refine((v) => /^[A-Za-z0-9_\s-]*$/.test(v), "That promo code is not valid");

/** Body of POST /api/orders/create. */
export const orderCreateSchema = z.object({
  cartId: z.string({ error: "No cart found" }).min(1, "No cart found").max(64),
  email: z.email("Please enter a valid email address").max(254),
  customerName: text("Name", 200),
  shippingAddress: usAddressSchema,
  promoCode: promoCodeSchema.nullish(),
});

/** Body of POST /api/promo/validate. */
export const promoValidateSchema = z.object({
  code: promoCodeSchema.min(1, "Enter a promo code"),
  cartId: z.string().max(64).nullish(),
  /** The shopper's email when known, so a per-email limit can be checked before paying. */
  email: z.email("Please enter a valid email address").max(254).nullish(),
});

/** A promo code as the owner names it: letters, digits, dashes and underscores; any case. */
const promoCodeName = z.string({ error: "code is required" })
  .transform((v) => v.replace(/\s+/g, "").toUpperCase())
  .pipe(
    z.string().regex(
      /^[A-Z0-9_-]{2,40}$/,
      "code must be 2 to 40 letters, digits, dashes or underscores",
    ),
  );

/** Dollars with at most two decimals, as every price in the API; answers cents. */
function dollarsField(field: string, min: number, max = 100_000) {
  const message = `${field} must be an amount in dollars from ${min} to ${max}, like 5.00`;
  return z.number({ error: message })
    .refine((v) => Number.isFinite(v) && v >= min && v <= max, message)
    .refine(
      (v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6,
      `${field} has at most two decimals`,
    )
    .transform((v) => Math.round(v * 100));
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** Whether text is an ISO 8601 date or date and time (with its offset) that exists. */
function isIsoDate(v: string): boolean {
  const m = ISO_DATE.exec(v);
  if (!m || Number.isNaN(Date.parse(v))) return false;
  // Date.parse takes 2026-02-30 as March 2nd: the calendar date must exist as written.
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
}

/** An ISO 8601 date (midnight UTC) or date and time with an offset; answers Unix ms. */
function isoTimeField(field: string) {
  const message = `${field} must be an ISO 8601 date, like 2026-12-01 or 2026-12-01T09:00:00Z`;
  return z.string({ error: message }).trim().refine(isIsoDate, message)
    .transform((v) => Date.parse(v));
}

/** A limit on uses: a whole number from 1. */
function usesField(field: string) {
  const message = `${field} must be a whole number from 1 to 1000000`;
  return z.number({ error: message }).int(message).min(1, message).max(1_000_000, message);
}

/** What a promo code gives and when: the fields POST and PATCH share (null clears one). */
const promoFields = {
  percentOff: z.number({ error: "percentOff must be a whole number from 1 to 100" })
    .int("percentOff must be a whole number from 1 to 100")
    .min(1, "percentOff must be a whole number from 1 to 100")
    .max(100, "percentOff must be a whole number from 1 to 100").nullish(),
  amountOff: dollarsField("amountOff", 0.01).nullish(),
  startsAt: isoTimeField("startsAt").nullish(),
  endsAt: isoTimeField("endsAt").nullish(),
  maxUses: usesField("maxUses").nullish(),
  maxUsesPerEmail: usesField("maxUsesPerEmail").nullish(),
  minSubtotal: dollarsField("minSubtotal", 0).nullish(),
  active: z.boolean({ error: "active must be true or false" }).optional(),
};

/** The rules between fields that one body can break on its own. */
function promoFieldRules(
  body: {
    percentOff?: number | null;
    amountOff?: number | null;
    startsAt?: number | null;
    endsAt?: number | null;
  },
  ctx: z.RefinementCtx,
  creating: boolean,
): void {
  const percent = body.percentOff != null;
  const amount = body.amountOff != null;
  if (percent && amount) {
    ctx.addIssue({
      code: "custom",
      path: ["amountOff"],
      message: "Give percentOff or amountOff, not both",
    });
  } else if (creating && !percent && !amount) {
    ctx.addIssue({
      code: "custom",
      path: ["percentOff"],
      message: "Give percentOff (1 to 100) or amountOff (dollars)",
    });
  }
  if (body.startsAt != null && body.endsAt != null && body.endsAt <= body.startsAt) {
    ctx.addIssue({ code: "custom", path: ["endsAt"], message: "endsAt must be after startsAt" });
  }
}

/** Body of POST /api/admin/promos. Unknown fields are refused, so a typo is not silently lost. */
export const promoCreateSchema = z.strictObject({ code: promoCodeName, ...promoFields })
  .superRefine((body, ctx) => promoFieldRules(body, ctx, true));

/** Body of PATCH /api/admin/promos/{code}: any field; `version` as GET gave it refuses stale edits. */
export const promoUpdateSchema = z.strictObject({
  ...promoFields,
  version: z.string().max(100).optional(),
}).superRefine((body, ctx) => promoFieldRules(body, ctx, false));

/** Body of PUT /api/admin/notice: the banner's text (empty shows none) and whether it shows. */
export const noticeSchema = z.strictObject({
  text: z.string({ error: "text is required (an empty text shows no banner)" }).trim()
    .max(300, "text must be at most 300 characters")
    .refine((v) => !LINE_CONTROLS.test(v), `text ${CONTROLS_MESSAGE}`)
    .meta(FREE_TEXT),
  active: z.boolean({ error: "active must be true or false" }),
  version: z.string().max(100).optional(),
});

/** A name the owner gives a switch, brand, pack or item: one line, shown to shoppers. */
const catalogName = (field: string, max: number) =>
  z.string({ error: `${field} is required` }).trim().min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`)
    .refine((v) => !LINE_CONTROLS.test(v), `${field} ${CONTROLS_MESSAGE}`)
    .meta(FREE_TEXT);

const SWITCH_TYPE_MESSAGE =
  "type must be linear, tactile or clicky, optionally silent (like silent linear)";

/** A switch type as the catalogue writes it: "linear", "silent tactile", ... (any case, spaces). */
const switchType = z.string({ error: SWITCH_TYPE_MESSAGE })
  .transform((v) => v.trim().toLowerCase().replace(/\s+/g, " "))
  .pipe(z.string().regex(/^(silent )?(linear|tactile|clicky)$/, SWITCH_TYPE_MESSAGE));

const FORCE_MESSAGE = 'force must be grams as text, like "55g" (20g to 150g)';

/** A force as GET /api/switches shows it, "55g": "55 G" is taken as "55g". */
const switchForce = z.string({ error: FORCE_MESSAGE })
  .transform((v) => v.trim().toLowerCase().replace(/\s+/g, ""))
  .pipe(
    z.string().regex(/^\d{2,3}(\.\d)?g$/, FORCE_MESSAGE)
      .refine((v) => parseFloat(v) >= 20 && parseFloat(v) <= 150, FORCE_MESSAGE),
  );

/**
 * A switch's surcharge: it may be negative, but never so much that a tester of 20 switches
 * ($18.99 base) or a cube could cost less than nothing.
 */
const extraPrice = dollarsField("extraPrice", -0.9, 50);

/** Where to buy a full set: an http(s) address, or empty for none. */
const referralLink = z.string({ error: "referralLink must be a web address (https://...)" })
  .trim().max(500, "referralLink must be at most 500 characters")
  .refine(
    (v) => v === "" || (URL.canParse(v) && /^https?:$/.test(new URL(v).protocol)),
    "referralLink must be a web address (https://...) or empty",
  );

/** Units on the shelf, as the inventory routes take them. */
const shelfStock = z.number({ error: "stock must be a whole number from 0 to 1000000" })
  .int("stock must be a whole number from 0 to 1000000")
  .min(0, "stock must be a whole number from 0 to 1000000")
  .max(1_000_000, "stock must be a whole number from 0 to 1000000");

/** `version` as the admin GET gave it: an edit of an older copy is refused (409). */
const editVersion = z.string({ error: "version must be the text the list gave" }).max(100)
  .optional();

/** Body of POST /api/admin/catalog/switches. Unknown fields are refused, so a typo is not lost. */
export const switchCreateSchema = z.strictObject({
  name: catalogName("name", 60),
  brand: catalogName("brand", 60),
  type: switchType,
  force: switchForce,
  extraPrice,
  referralLink: referralLink.optional(),
  stock: shelfStock.optional(),
});

/** Body of PATCH /api/admin/catalog/switches/{id}: any field, and `retired`. */
export const switchUpdateSchema = z.strictObject({
  name: catalogName("name", 60).optional(),
  brand: catalogName("brand", 60).optional(),
  type: switchType.optional(),
  force: switchForce.optional(),
  extraPrice: extraPrice.optional(),
  referralLink: referralLink.optional(),
  stock: shelfStock.optional(),
  retired: z.boolean({ error: "retired must be true or false" }).optional(),
  version: editVersion,
});

/** How many switches a themed pack holds. */
export const PACK_SWITCH_COUNT = 10;

const PACK_SWITCHES_MESSAGE = `switchIds must list exactly ${PACK_SWITCH_COUNT} switch ids`;

/** Body of PATCH /api/admin/catalog/packs/{id} (the id without keycaps). */
export const packUpdateSchema = z.strictObject({
  title: catalogName("title", 80).optional(),
  description: z.string({ error: "description is required" }).trim()
    .min(1, "description is required").max(1000, "description must be at most 1000 characters")
    .refine((v) => !TEXT_CONTROLS.test(v), `description ${CONTROLS_MESSAGE}`)
    .meta(FREE_TEXT).optional(),
  /** Dollars without keycaps; the with-keycaps product costs $2.00 more. */
  price: dollarsField("price", 0).optional(),
  switchIds: z.array(
    z.number({ error: "switchIds must be switch ids (whole numbers)" })
      .int("switchIds must be switch ids (whole numbers)")
      .positive("switchIds must be switch ids (whole numbers)"),
    { error: PACK_SWITCHES_MESSAGE },
  ).length(PACK_SWITCH_COUNT, PACK_SWITCHES_MESSAGE)
    .refine((ids) => new Set(ids).size === ids.length, "switchIds must be 10 different switches")
    .optional(),
  onSale: z.boolean({ error: "onSale must be true or false" }).optional(),
  version: editVersion,
});

/** Body of PATCH /api/admin/catalog/items/{id}. */
export const itemUpdateSchema = z.strictObject({
  name: catalogName("name", 80).optional(),
  price: dollarsField("price", 0).optional(),
  onSale: z.boolean({ error: "onSale must be true or false" }).optional(),
  version: editVersion,
});

/** Body of the demo provider's pay and confirm calls (only the card number is required). */
export const demoPaySchema = z.object({
  cardNumber: z.string({ error: "Card number is required" }).max(
    40,
    "Your card number is invalid.",
  ),
  email: z.email("Please enter a valid email address").max(254).nullish(),
  name: line("Name", 200).nullish(),
  address: anyAddressSchema.nullish(),
  businessPurchase: z.boolean().nullish(),
  taxId: line("The VAT or Tax ID", 40).nullish(),
  promoCode: promoCodeSchema.nullish(),
});

/** Body of POST /api/admin/verify. */
export const adminVerifySchema = z.object({
  password: z.string({ error: "Enter the admin password" }).min(1, "Enter the admin password")
    .max(200, "Invalid password"),
  /** A staff member's email; left out (or empty) it is the owner signing in. */
  email: z.string({ error: EMAIL_MESSAGE }).max(300, EMAIL_MESSAGE).optional()
    .transform((e) => e?.trim().toLowerCase() || undefined)
    .pipe(z.email(EMAIL_MESSAGE).max(254, EMAIL_MESSAGE).optional()),
});

/** Body of POST /api/admin/orders/{n}/tracking. */
export const trackingSchema = z.object({
  // Stored as the carrier writes it (shared/tracking_number.ts). The raw bound only keeps a huge
  // body from being scanned; the rule's own limit applies to the normalised number.
  trackingNumber: z.string({ error: "Please enter a tracking number" })
    .max(200, `A tracking number has at most ${TRACKING_NUMBER_MAX} characters`)
    .transform((raw, ctx) => {
      const normalised = normaliseTrackingNumber(raw);
      const problem = trackingNumberProblem(normalised);
      if (problem) {
        ctx.addIssue({ code: "custom", message: problem });
        return z.NEVER;
      }
      return normalised;
    }),
});

/** Body of the inventory PUT routes: a new shelf count, a new low-stock threshold, or both. */
export const stockUpdateSchema = z.object({
  stock: z.number({ error: "Stock must be a number" }).int("Stock must be a whole number")
    .min(0, "Stock cannot be negative").max(1_000_000, "Stock is too large").optional(),
  lowStockAt: z.number({ error: "The low-stock level must be a number" })
    .int("The low-stock level must be a whole number")
    .min(0, "The low-stock level cannot be negative")
    .max(1_000_000, "The low-stock level is too large").optional(),
}).refine((b) => b.stock !== undefined || b.lowStockAt !== undefined, {
  error: "Send a stock count, a low-stock level, or both",
});

/** A calendar day in a query (YYYY-MM-DD, a real date). */
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Dates are written YYYY-MM-DD").refine(
  (d) =>
    !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) &&
    new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
  "That date does not exist",
);

/** A page size in a query. */
function pageLimit(fallback: number) {
  return z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
    z.number({ error: "limit must be a number" }).int("limit must be a whole number")
      .min(1, "limit is at least 1").max(200, "limit is at most 200"),
  ).default(fallback);
}

/** Query of GET /api/admin/audit (and audit.csv): filters, a page's size, the older page's cursor. */
export const auditQuerySchema = auditQuery(AUDIT_PAGE_DEFAULT);

/** Query of GET /api/admin/audit.csv: the same, a whole page (500) unless told. */
export const auditCsvQuerySchema = auditQuery(AUDIT_PAGE_MAX);

function auditQuery(fallback: number) {
  return z.object({
    actor: z.string().trim().max(254).optional(),
    kind: z.enum(AUDIT_KINDS, { error: `kind is one of ${AUDIT_KINDS.join(", ")}` }).optional(),
    limit: z.preprocess(
      (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
      z.number({ error: "limit must be a number" }).int("limit must be a whole number")
        .min(1, "limit is at least 1").max(AUDIT_PAGE_MAX, `limit is at most ${AUDIT_PAGE_MAX}`),
    ).default(fallback),
    before: z.string().regex(/^\d{1,16}\.[A-Za-z0-9_-]{8,40}$/, "before is a cursor this API gave")
      .optional(),
  });
}

/** Query of GET /api/admin/emails. */
export const adminEmailsQuerySchema = z.object({
  to: z.string().trim().max(254).optional(),
  limit: pageLimit(50),
});

/** Days a range may start and end on (both optional). */
const dayBounds = { from: isoDay.optional(), to: isoDay.optional() };

function inOrder(q: { from?: string; to?: string }): boolean {
  return !q.from || !q.to || q.from <= q.to;
}

/** Query of GET /api/admin/orders. */
export const adminOrdersQuerySchema = z.object({
  ...dayBounds,
  status: z.enum(["new", "processed", "cancelled", "all"], {
    error: "status is one of new, processed, cancelled, all",
  }).default("all"),
  q: z.string().trim().max(200).optional(),
  limit: pageLimit(200),
  cursor: z.string().max(200).optional(),
}).refine(inOrder, { error: "from must not be after to" });

/** Query of GET /api/admin/orders/new/csv: an optional range of days. */
export const ordersCsvQuerySchema = z.object(dayBounds).refine(inOrder, {
  error: "from must not be after to",
});

/**
 * The most orders one Ship Orders request names: the server ships them one write each, so a
 * request stays bounded; the dashboard sends a longer list in parts of this size.
 */
export const SHIP_AT_ONCE_MAX = 500;

/** Body of POST /api/admin/orders/ship-processed: none ships every ready order, or these. */
export const shipChosenSchema = z.object({
  orderNumbers: z.array(z.string().trim().min(1).max(40), {
    error: "orderNumbers is a list of order numbers",
  }).min(1, "Choose at least one order to ship")
    .max(SHIP_AT_ONCE_MAX, `Ship at most ${SHIP_AT_ONCE_MAX} orders at once`)
    .optional(),
});

/** Query of GET /api/admin/sales: both days required, at most a year and a day apart. */
export const salesQuerySchema = z.object({ from: isoDay, to: isoDay }).refine(
  (q) => q.from <= q.to,
  { error: "from must not be after to" },
).refine(
  (q) => Date.parse(q.to) - Date.parse(q.from) <= 366 * 86_400_000,
  { error: "Choose a range of at most 366 days" },
);

const accountEmail = z.string({ error: EMAIL_MESSAGE }).transform(stripTags)
  .transform((e) => e.toLowerCase())
  .pipe(z.email(EMAIL_MESSAGE).max(254, EMAIL_MESSAGE));

/** Body of POST /auth/register. */
export const registerSchema = z.object({
  email: accountEmail,
  password: z.string({ error: PASSWORD_MESSAGE }).max(200, "Password is too long")
    .transform(stripTags).refine(isStrongPassword, PASSWORD_MESSAGE),
  user_id: z.string().max(64).nullish(),
});

/** Body of POST /auth/login. */
export const loginSchema = z.object({
  email: accountEmail,
  password: z.string({ error: "Password is required" }).min(1, "Password is required")
    .max(200, "Password is too long").transform(stripTags),
  cartId: z.string().max(64).nullish(),
});

const roleSchema = z.enum(ROLES, { error: `The role must be one of: ${ROLES.join(", ")}` });

/** Body of POST /api/admin/staff: who to invite, and as what. */
export const staffInviteSchema = z.object({ email: accountEmail, role: roleSchema });

/** Body of PATCH /api/admin/staff/{id}. */
export const staffRoleSchema = z.object({ role: roleSchema });

/** Body of POST /api/admin/invite/accept: the invitation link's token and the new password. */
export const inviteAcceptSchema = z.object({
  token: z.string({ error: "The invitation link is incomplete" }).trim()
    .regex(/^[A-Za-z0-9_-]{20,64}$/, "This invitation link is not one we sent"),
  password: registerSchema.shape.password,
});

/** Query of GET /api/admin/sessions: `all=1` (the owner) lists every account's. */
export const adminSessionsQuerySchema = z.object({
  all: z.enum(["0", "1"], { error: "all is 1 or 0" }).optional(),
});

/** Body of POST /auth/password-reset. */
export const passwordResetSchema = z.object({ email: accountEmail });

/** Body of POST /auth/password-reset/confirm: the link's token and the new password. */
export const passwordResetConfirmSchema = z.object({
  token: z.string({ error: "The reset link is incomplete" }).trim().min(
    10,
    "The reset link is incomplete",
  )
    .max(100, "The reset link is not one we sent"),
  password: registerSchema.shape.password,
});

/** Body of DELETE /auth/me: the password, to confirm. */
export const deleteAccountSchema = z.object({
  password: z.string({ error: "Enter your password to confirm" }).min(
    1,
    "Enter your password to confirm",
  )
    .max(200, "Password is too long"),
});

/** Body of POST /api/orders/{n}/cancel: the order's email (a guest's proof that it is theirs). */
export const customerCancelSchema = z.object({
  email: z.string({ error: EMAIL_MESSAGE }).trim().pipe(
    z.email(EMAIL_MESSAGE).max(254, EMAIL_MESSAGE),
  )
    .optional(),
});

/**
 * Body of POST /api/orders/{n}/extend-hold: the payment the page shows (the demo page's session
 * id, /checkout's payment intent id), which only the shopper who started the checkout holds.
 */
export const extendHoldSchema = z.object({
  paymentId: z.string({ error: "paymentId is required" }).min(1, "paymentId is required")
    .max(200, "paymentId is too long"),
});

/** Body of POST /api/stock-alerts: who to tell, about one switch or one product. */
export const stockAlertSchema = z.object({
  email: accountEmail,
  switchId: z.number({ error: "switchId must be a number" }).int().positive().optional(),
  productId: z.number({ error: "productId must be a number" }).int().positive().optional(),
}).refine((b) => (b.switchId === undefined) !== (b.productId === undefined), {
  error: "Send a switchId or a productId (one of them)",
});

/** Query of the back-in-stock confirmation page and its button (tokens as unsubscribe links). */
export const stockAlertConfirmQuerySchema = z.object({
  token: z.string({ error: "This confirmation link is not complete" })
    .regex(/^[A-Za-z0-9_-]{10,64}$/, "This confirmation link is not one we sent"),
});

/** Query of the back-in-stock email's unsubscribe page and its button. */
export const unsubscribeQuerySchema = z.object({
  token: z.string({ error: "This unsubscribe link is not complete" })
    .regex(/^[A-Za-z0-9_-]{10,64}$/, "This unsubscribe link is not one we sent"),
});

/**
 * Body of POST /auth/create-payment-intent when it creates a payment
 * (docs/product.md#checkout-api).
 */
export const paymentIntentSchema = z.object({
  cart_data: z.object({ cartId: z.string({ error: "No cart found" }).min(1).max(64) }, {
    error: "No cart found",
  }),
  email: z.email("Please enter a valid email address").max(254),
  name: text("Name", 200),
  address: text("Address", 200),
  apartment: line("Apartment", 100).nullish(),
  city: text("City", 100),
  state: line("State", 50).nullish(),
  zipcode: usZipCode,
  promoCode: promoCodeSchema.nullish(),
});

/** What the browser sends to each route, as the schemas above take it (before their defaults). */
export type OrderCreateInput = z.input<typeof orderCreateSchema>;
export type PromoValidateInput = z.input<typeof promoValidateSchema>;
export type DemoPayInput = z.input<typeof demoPaySchema>;
export type ContactInput = z.input<typeof contactSchema>;
export type RegisterInput = z.input<typeof registerSchema>;
export type LoginInput = z.input<typeof loginSchema>;
export type AdminVerifyInput = z.input<typeof adminVerifySchema>;
export type StaffInviteInput = z.input<typeof staffInviteSchema>;
export type InviteAcceptInput = z.input<typeof inviteAcceptSchema>;
export type TrackingInput = z.input<typeof trackingSchema>;
export type StockUpdateInput = z.input<typeof stockUpdateSchema>;
export type ShipChosenInput = z.input<typeof shipChosenSchema>;
export type AdminOrdersQuery = z.input<typeof adminOrdersQuerySchema>;
export type SalesQuery = z.input<typeof salesQuerySchema>;
export type PasswordResetInput = z.input<typeof passwordResetSchema>;
export type PasswordResetConfirmInput = z.input<typeof passwordResetConfirmSchema>;
export type DeleteAccountInput = z.input<typeof deleteAccountSchema>;
export type CustomerCancelInput = z.input<typeof customerCancelSchema>;
export type ExtendHoldInput = z.input<typeof extendHoldSchema>;
export type StockAlertInput = z.input<typeof stockAlertSchema>;
export type PromoCreateInput = z.input<typeof promoCreateSchema>;
export type PromoUpdateInput = z.input<typeof promoUpdateSchema>;
export type NoticeInput = z.input<typeof noticeSchema>;
export type SwitchCreateInput = z.input<typeof switchCreateSchema>;
export type SwitchUpdateInput = z.input<typeof switchUpdateSchema>;
export type PackUpdateInput = z.input<typeof packUpdateSchema>;
export type ItemUpdateInput = z.input<typeof itemUpdateSchema>;

/**
 * Body of POST /api/admin/api-keys: a name the owner will recognise in the list and the audit
 * log, the role the script acts with, and an optional end (at most a year ahead, checked against
 * the shop's clock where the key is made).
 */
export const apiKeyCreateSchema = z.object({
  name: z.string({ error: "Give the key a name" }).trim()
    .min(1, "Give the key a name")
    .max(60, "A key's name must be at most 60 characters")
    .refine((v) => !LINE_CONTROLS.test(v), `A key's name ${CONTROLS_MESSAGE}`)
    .meta(FREE_TEXT),
  role: z.enum(ROLES, { error: "role must be owner or staff" }),
  expiresAt: isoTimeField("expiresAt").optional(),
});

export type ApiKeyCreateInput = z.input<typeof apiKeyCreateSchema>;
