import { Hono } from "hono";
import { contactSchema } from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import { saveContactMessage } from "../contact/messages.ts";
import { hitRateLimit } from "../kv/rate_limit.ts";
import { clientKey } from "../middleware/client_key.ts";
import { validateJson } from "../http/validate.ts";

/** Five messages per ten minutes per client stops floods without bothering real shoppers. */
export const CONTACT_LIMIT = { bucket: "contact", max: 5, windowMs: 10 * 60 * 1000 };

/** POST /api/sendMessage (docs/product.md#contact-api). */
export function contactRoutes({ kv, clock, config }: AppDeps): Hono {
  return new Hono().post("/sendMessage", validateJson(contactSchema), async (c) => {
    await hitRateLimit(
      kv,
      clock,
      CONTACT_LIMIT,
      clientKey(c),
      "You have sent several messages in a short time. Please wait a few minutes and try again.",
    );
    const message = await saveContactMessage(kv, clock, config.shopEmail, c.req.valid("json"));
    return c.json({ ok: true, id: message.id });
  });
}
