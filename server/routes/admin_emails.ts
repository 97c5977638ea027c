import { Hono } from "hono";
import { z } from "zod";
import type { AdminEmailView, MailHealthView } from "../../shared/api_types.ts";
import { adminEmailsQuerySchema } from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import {
  listRecentOutbox,
  mailHealth,
  outboxCounts,
  type OutboxEntry,
  resendEmail,
} from "../email/outbox.ts";
import { hideLinkSecrets } from "../email/link_secrets.ts";
import { validateParams, validateQuery } from "../http/validate.ts";
import { actorOf } from "../middleware/actor_context.ts";

/**
 * An outbox entry as the Emails tab shows it, without its links' secrets; a delivery under way is
 * still "pending".
 */
function emailView(entry: OutboxEntry): AdminEmailView {
  return {
    id: entry.id,
    to: entry.email.to,
    subject: hideLinkSecrets(entry.email.subject),
    text: hideLinkSecrets(entry.email.text),
    status: entry.status === "sending" ? "pending" : entry.status,
    error: entry.lastError,
    attempts: entry.attempts,
    createdAt: new Date(entry.createdAt).toISOString(),
    sentAt: entry.sentAt === null ? null : new Date(entry.sentAt).toISOString(),
  };
}

/**
 * What the shop told whom (the Emails tab): every email of the outbox, newest first, whether mail
 * goes out, and resend.
 */
export function adminEmailRoutes(deps: AppDeps): Hono {
  const { kv, clock } = deps;
  const app = new Hono();

  app.get("/", validateQuery(adminEmailsQuerySchema), async (c) => {
    const { to, limit } = c.req.valid("query");
    const entries = await listRecentOutbox(kv, { to: to || undefined, limit });
    return c.json(entries.map(emailView));
  });

  app.get("/health", async (c) => {
    const [health, counts] = await Promise.all([mailHealth(kv), outboxCounts(kv, clock.now())]);
    const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();
    return c.json(
      {
        failingSince: iso(health.failingSince),
        lastError: health.lastError,
        ...counts,
      } satisfies MailHealthView,
    );
  });

  app.post(
    "/:id/resend",
    validateParams(z.object({ id: z.string().min(1).max(64) })),
    async (c) =>
      c.json(emailView(await resendEmail(kv, clock, c.req.valid("param").id, actorOf(c))), 201),
  );
  return app;
}
