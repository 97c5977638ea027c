import { Hono } from "hono";
import { z } from "zod";
import {
  DROP_TARGET_KINDS,
  dropIdSchema,
  dropJoinSchema,
  type DropNotifyAnswer,
  dropNotifySchema,
  dropTicketQuerySchema,
  dropTicketSchema,
  type JoinAnswer,
} from "../../shared/drops.ts";
import { escapeHtml } from "../../shared/html.ts";
import { stockAlertConfirmQuerySchema } from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import {
  optionalJson,
  parseWith,
  validateJson,
  validateParams,
  validateQuery,
} from "../http/validate.ts";
import { hitRateLimit, type RateLimit } from "../kv/rate_limit.ts";
import { clientBlockOf, clientKey } from "../middleware/client_key.ts";
import { originOf } from "../middleware/shop_origin.ts";
import { optionalUser } from "../middleware/user_auth.ts";
import { createEmptyCart, findCart, userCartId } from "../cart/store.ts";
import { answerPlace, takePlace } from "../drops/waiting_room.ts";
import {
  confirmOpeningSignUp,
  dropConfirmLinkWorks,
  signUpForOpening,
} from "../drops/opening_mail.ts";
import { createRooms } from "../drops/room_snapshot.ts";
import { dropForTarget, switchDrops } from "../drops/views.ts";
import { NEW_CART_LIMIT } from "./cart.ts";
import { page } from "./stock_alerts.ts";

/** Places in waiting rooms per client network per 10 minutes: `max` is DROP_JOINS_PER_CLIENT. */
export const DROP_JOIN_LIMIT: RateLimit = { bucket: "drop-join", max: 10, windowMs: 10 * 60_000 };

/**
 * Places per block of networks (IPv4 /24, IPv6 /48) per 10 minutes: `max` is DROP_JOINS_PER_BLOCK.
 * A host is handed a /48 as easily as a /64, and each /64 is a client of its own.
 */
export const DROP_JOIN_BLOCK_LIMIT: RateLimit = {
  bucket: "drop-join-block",
  max: 2_500,
  windowMs: 10 * 60_000,
};

/** "Email me when it opens" per client per 10 minutes (each may become an email). */
export const DROP_NOTIFY_LIMIT: RateLimit = {
  bucket: "drop-notify",
  max: 20,
  windowMs: 10 * 60_000,
};

const dropParam = z.object({ id: dropIdSchema });
const ticketParam = z.object({ id: dropIdSchema, ticket: dropTicketSchema });
const targetParam = z.object({
  kind: z.enum(DROP_TARGET_KINDS, { error: "kind must be switch, pack or item" }),
  // Digits only, as the shop writes its ids: a target with no drop answers null, so a spelling
  // such as 1e3 must be refused here rather than read as another id.
  id: z.string().regex(/^[1-9][0-9]{0,9}$/, "id must be a positive whole number").transform(Number)
    .refine((n) => n <= 2 ** 31, "id is too large"),
});

/** Drops as shoppers meet them: the public view, the waiting room, "Email me when it opens". */
export function dropRoutes(deps: AppDeps): Hono {
  const { kv, clock, config } = deps;
  const rooms = createRooms(kv, clock);
  const joinLimit = { ...DROP_JOIN_LIMIT, max: config.dropJoinsPerClient };
  const joinBlockLimit = { ...DROP_JOIN_BLOCK_LIMIT, max: config.dropJoinsPerBlock };
  const newCartLimit = { ...NEW_CART_LIMIT, max: config.newCartsPerClient };
  const app = new Hono();

  app.get("/for/:kind/:id", validateParams(targetParam), async (c) => {
    return c.json(await dropForTarget(kv, clock, c.req.valid("param")));
  });

  // The configurators' switch cards: every switch drop in one read, not one request per switch.
  app.get("/switches", async (c) => c.json(await switchDrops(kv, clock)));

  app.post("/:id/join", async (c) => {
    // The id is checked only once the limits have counted the join (a burst costs its places).
    const dropId = () => parseWith(dropParam, { id: c.req.param("id") }).id;
    // The body is optional: the query may carry the cart.
    const body = parseWith(dropJoinSchema, await optionalJson(c.req));
    const query = parseWith(dropTicketQuerySchema, { cartId: c.req.query("cartId") });
    const user = await optionalUser(deps, c);
    return c.json(
      await takePlace(deps, rooms, {
        dropId,
        userId: user?.userId ?? null,
        cartId: body.cartId ?? query.cartId ?? null,
        network: clientKey(c),
        limits: {
          client: { limit: joinLimit, key: clientKey(c) },
          block: { limit: joinBlockLimit, key: clientBlockOf(c) },
          newCart: newCartLimit,
        },
        carts: {
          isLive: async (cartId) => (await findCart(kv, clock, cartId)) !== null,
          createEmpty: async () => (await createEmptyCart(kv, clock, null)).id,
          ofUser: (userId) => userCartId(kv, userId),
        },
      }) satisfies JoinAnswer,
    );
  });

  app.get(
    "/:id/tickets/:ticket",
    validateParams(ticketParam),
    validateQuery(dropTicketQuerySchema),
    async (c) => {
      const { id, ticket } = c.req.valid("param");
      return c.json(
        await answerPlace(kv, rooms, {
          dropId: id,
          ticket,
          cartId: c.req.valid("query").cartId,
          userId: async () => (await optionalUser(deps, c))?.userId ?? null,
        }),
      );
    },
  );

  app.post("/:id/notify", validateParams(dropParam), validateJson(dropNotifySchema), async (c) => {
    await hitRateLimit(
      kv,
      clock,
      DROP_NOTIFY_LIMIT,
      clientKey(c),
      "Too many sign-ups. Please wait a few minutes and try again.",
    );
    const { email } = c.req.valid("json");
    // A signed-in shopper's own address needs no confirmation.
    const own = (await optionalUser(deps, c))?.email.toLowerCase() === email.toLowerCase();
    const { checkInbox } = await signUpForOpening(
      deps,
      c.req.valid("param").id,
      email,
      originOf(c),
      own,
    );
    return c.json({ ok: true, checkInbox } satisfies DropNotifyAnswer);
  });
  return app;
}

const STALE_LINK =
  "<p>This confirmation link has expired or was already used. If you confirmed it, you are all set: the email comes when the drop opens.</p>";

/**
 * The confirmation link of an opening-mail sign-up: opening it asks (a mail scanner's GET must
 * not confirm anyone), the button's POST confirms. The pages carry a token: never kept by a cache.
 */
export function dropConfirmRoutes(deps: AppDeps): Hono {
  const { kv, clock } = deps;
  const app = new Hono();
  app.get("/confirm", validateQuery(stockAlertConfirmQuerySchema), async (c) => {
    const { token } = c.req.valid("query");
    if (!await dropConfirmLinkWorks(kv, token, clock.now())) {
      return c.html(page("Link expired", STALE_LINK), 404);
    }
    return c.html(page(
      "Confirm the opening email?",
      `<p>We will email this address once, when the drop opens.</p><form method="post" action="/drop-alerts/confirm?token=${
        escapeHtml(token)
      }"><button type="submit">Confirm</button></form>`,
    ));
  });
  app.post("/confirm", validateQuery(stockAlertConfirmQuerySchema), async (c) => {
    if (!await confirmOpeningSignUp(kv, c.req.valid("query").token, clock.now())) {
      return c.html(page("Link expired", STALE_LINK), 404);
    }
    return c.html(
      page("Confirmed", "<p>Thank you. We will email you once, when the drop opens.</p>"),
    );
  });
  return app;
}
