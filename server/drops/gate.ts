/**
 * The cart's gate: while a drop is scheduled or running (not sold out, not called off), a line
 * that takes its units goes into a cart only with a place in line that is the shopper's own,
 * admitted, and within its time; and not past the per-person limit as far as the place itself
 * knows (the binding check of every person key is the reservation's). Each refusal is counted
 * for the owner's view.
 */
import { Conflict } from "../errors.ts";
import type { Clock } from "../clock.ts";
import { countRefusal, findTicket } from "./store.ts";
import { type DropIndex, type DropLine, runningDropsOf } from "./line_drops.ts";
import {
  checkAdmitted,
  DropRefused,
  type DropTicketRef,
  dropUnitsOf,
  joinSentence,
  limitSentence,
  TicketTransferred,
} from "./purchase_rules.ts";

/** What the gate looks at for one add or quantity raise. */
export interface GateInput {
  /** The line as it would be (its new quantity). */
  line: DropLine;
  /** Units of the line added by this change. */
  added: number;
  /** The ticket presented, or the one the line already carries. */
  ticket: DropTicketRef | string | null;
  /**
   * Who the shopper is: `user:<id>` when signed in, `cart:<id>` for the cart; null when the ticket
   * is the one the line already carries (matched when it was added; a cart joined at sign-in
   * keeps its lines' places).
   */
  holders: readonly string[] | null;
  /** The drop index as read ahead alongside the caller's first reads (line_drops.ts). */
  ahead?: Promise<DropIndex>;
}

/**
 * Answers the place the line is bought with (null when no running drop takes its units), or
 * refuses with the shopper's sentence.
 */
export async function gateLine(
  kv: Deno.Kv,
  clock: Clock,
  input: GateInput,
): Promise<DropTicketRef | null> {
  const drops = await runningDropsOf(kv, [input.line], input.ahead);
  if (drops.length === 0) return null;
  if (drops.length > 1) {
    throw new Conflict(
      `This item is part of two drops (${
        drops.map((d) => d.drop.name).join(" and ")
      }); choose switches from one drop at a time`,
    );
  }
  const { drop } = drops[0];
  try {
    const presented = typeof input.ticket === "string"
      ? input.ticket
      : input.ticket?.dropId === drop.id
      ? input.ticket.ticket
      : null;
    if (!presented) throw new DropRefused(drop.id, "no admitted ticket", joinSentence(drop));
    const ticket = checkAdmitted(
      drop,
      (await findTicket(kv, drop.id, presented)).value,
      input.holders,
      clock.now(),
    );
    const inCart = dropUnitsOf(drop, [input.line]);
    const have = ticket.units;
    if (Math.max(have + input.added, inCart) > drop.perPersonLimit) {
      throw new DropRefused(
        drop.id,
        "per-person limit",
        limitSentence(drop.perPersonLimit, Math.max(have, inCart - input.added)),
      );
    }
    return { dropId: drop.id, ticket: ticket.ticket };
  } catch (err) {
    if (err instanceof DropRefused || err instanceof TicketTransferred) {
      await countRefusal(kv, drop.id, err.reason);
    }
    throw err;
  }
}
