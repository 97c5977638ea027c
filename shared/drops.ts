/**
 * Drops, as both sides see them: the owner's scheduling body, the shopper's calls and every
 * answer's shape (the contract of docs/drops.md), so the dashboard, the waiting room page and the
 * server agree on one spelling.
 */
import { z } from "zod";

/** What a drop sells: a switch (in any tester or pack), a themed pack, or an item. */
export const DROP_TARGET_KINDS = ["switch", "pack", "item"] as const;
export type DropTargetKind = typeof DROP_TARGET_KINDS[number];

export interface DropTarget {
  kind: DropTargetKind;
  id: number;
}

/** Bounds the owner's form and the server share. */
export const DROP_MAX_UNITS = 100_000;
export const DROP_MAX_PER_PERSON = 100;
export const DROP_MIN_HOLD_MINUTES = 2;
export const DROP_MAX_HOLD_MINUTES = 60;

/** Body of POST /api/admin/drops. */
export const dropScheduleSchema = z.object({
  target: z.object({
    kind: z.enum(DROP_TARGET_KINDS, { error: "target.kind must be switch, pack or item" }),
    id: z.number({ error: "target.id must be a number" }).int().positive(
      "target.id must be positive",
    ),
  }, { error: "target is required: { kind, id }" }),
  units: z.number({ error: "units must be a number" }).int("units must be a whole number")
    .min(1, "units must be at least 1").max(
      DROP_MAX_UNITS,
      `units can be at most ${DROP_MAX_UNITS}`,
    ),
  opensAt: z.iso.datetime({ offset: true, error: "opensAt must be an ISO date and time" }),
  perPersonLimit: z.number({ error: "perPersonLimit must be a number" })
    .int("perPersonLimit must be a whole number").min(1, "perPersonLimit must be at least 1")
    .max(DROP_MAX_PER_PERSON, `perPersonLimit can be at most ${DROP_MAX_PER_PERSON}`),
  holdMinutes: z.number({ error: "holdMinutes must be a number" })
    .int("holdMinutes must be a whole number")
    .min(DROP_MIN_HOLD_MINUTES, `holdMinutes must be at least ${DROP_MIN_HOLD_MINUTES}`)
    .max(DROP_MAX_HOLD_MINUTES, `holdMinutes can be at most ${DROP_MAX_HOLD_MINUTES}`).optional(),
  signedInOnly: z.boolean({ error: "signedInOnly must be true or false" }).optional(),
});
export type DropScheduleBody = z.infer<typeof dropScheduleSchema>;

/** A ticket as it appears in URLs and bodies (base64url, as randomId makes them). */
export const dropTicketSchema = z.string({ error: "ticket is required" })
  .regex(/^[A-Za-z0-9_-]{16,64}$/, "This is not a ticket of this shop");

/** A drop's id in URLs. */
export const dropIdSchema = z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "No such drop");

/** Where a place in the waiting room stands. */
export type TicketState = "waiting" | "admitted" | "soldOut" | "expired";

/** GET /api/drops/{id}/tickets/{ticket}. */
export interface TicketAnswer {
  state: TicketState;
  /** 1 for the next to be let in; absent once admitted, before the draw at the opening. */
  position?: number;
  admittedAt?: string;
  /** Until when an admitted shopper may start a checkout. */
  admittedUntil?: string;
  /** Minutes until the shopper's turn, at the pace of the last minutes; absent when unknown. */
  estimateMinutes?: number;
  /** The server's time, so a page counts down from it, whatever the device's clock says. */
  serverTime: string;
  opensAt: string;
  /**
   * Before the opening: the order of the first window's arrivals is drawn at the opening, so no
   * place is shown yet (arriving first buys nothing).
   */
  drawAtOpening?: boolean;
  /** The owner called the drop off (the state then says soldOut: nothing is left to buy). */
  cancelled?: boolean;
  /** Minutes an admitted shopper has to start a checkout, and a drop checkout holds. */
  holdMinutes: number;
}

/** POST /api/drops/{id}/join. */
export interface JoinAnswer {
  ticket: string;
  state: TicketState;
  /** The cart the place is bound to (a guest without a cart gets a new one). */
  cartId: string | null;
}

/** What a product page shows of a drop (GET /api/drops/for/{kind}/{id}, and server-rendered). */
export interface DropPublicView {
  id: string;
  target: DropTarget;
  name: string;
  units: number;
  opensAt: string;
  serverTime: string;
  perPersonLimit: number;
  holdMinutes: number;
  signedInOnly: boolean;
  /** scheduled: before the room opens; room: the waiting room takes places; open: selling. */
  phase: "scheduled" | "room" | "open" | "soldOut" | "cancelled";
  unitsLeft: number;
}

/** GET /api/admin/drops/{id}: the owner's live view (the contract's fields first). */
export interface DropAdminView extends DropPublicView {
  sold: number;
  waiting: number;
  admitted: number;
  holding: number;
  /** Refusals by reason ("per-person limit", "sold out", "no admitted ticket", ...). */
  refused: Record<string, number>;
  createdAt: string;
  soldOutAt: string | null;
  /** Seconds from the opening to the last unit sold. */
  secondsToSellOut: number | null;
  /** People still waiting, and back-in-stock sign-ups for the target: demand left unfilled. */
  unfilled: {
    waiting: number;
    signUps: number;
    /** Of signUps: back-in-stock sign-ups for the target, and confirmed opening-mail sign-ups. */
    backInStock: number;
    openingMail: number;
  };
  /** Places whose admission lapsed unused. */
  expired: number;
}

/** One row of GET /api/admin/drops (newest first). */
export interface DropListRow extends DropPublicView {
  sold: number;
  holding: number;
  createdAt: string;
  cancelledAt: string | null;
  soldOutAt: string | null;
}

/** Body of POST /api/drops/{id}/join (the query's cartId is taken too). */
export const dropJoinSchema = z.object({
  cartId: z.string().min(1).max(64).optional(),
}).strict();

/** Query of GET /api/drops/{id}/tickets/{ticket}. */
export const dropTicketQuerySchema = z.object({
  cartId: z.string().min(1).max(64).optional(),
});

/** Body of POST /api/drops/{id}/notify: "Email me when it opens". */
export const dropNotifySchema = z.object({
  email: z.email({ error: "email must be an email address" }).max(254, "email is too long"),
}).strict();

/** Answer of POST /api/drops/{id}/notify. */
export interface DropNotifyAnswer {
  ok: true;
  /** A confirmation link was (or will be) emailed: the address is mailed only once confirmed. */
  checkInbox: boolean;
}
