import { Hono } from "hono";
import { auditCsvQuerySchema, auditQuerySchema } from "../../shared/schemas.ts";
import type { AuditActorView } from "../../shared/api_types.ts";
import type { AppDeps } from "../deps.ts";
import { actorOf } from "../middleware/actor_context.ts";
import { validateQuery } from "../http/validate.ts";
import { listAudit, listAuditActors } from "../audit/read.ts";
import { auditEntryView, exportAuditCsv } from "../audit/export.ts";
import { auditEntry } from "../audit/log.ts";

/**
 * The audit log (the Audit tab), the owner's alone (it names everyone's doings and addresses: the
 * role table, shared/admin_permissions.ts): a page of entries, the actors seen, and the CSV export. */
export function adminAuditRoutes(deps: AppDeps): Hono {
  const { kv, clock } = deps;
  const app = new Hono();

  app.get("/audit", validateQuery(auditQuerySchema), async (c) => {
    const page = await listAudit(kv, c.req.valid("query"));
    if (page.nextCursor) c.header("X-Next-Cursor", page.nextCursor);
    return c.json(page.entries.map(auditEntryView));
  });

  app.get("/audit/actors", async (c) => {
    return c.json((await listAuditActors(kv)) satisfies AuditActorView[]);
  });

  app.get("/audit.csv", validateQuery(auditCsvQuerySchema), async (c) => {
    const query = c.req.valid("query");
    const audit = auditEntry(clock, actorOf(c), {
      kind: "export",
      action: "export.audit",
      target: [query.actor && `actor ${query.actor}`, query.kind && `kind ${query.kind}`]
        .filter(Boolean).join(", ") || "all",
    });
    const { body, nextCursor } = await exportAuditCsv(kv, query, audit);
    if (nextCursor) c.header("X-Next-Cursor", nextCursor);
    // The byte order mark tells spreadsheet programs the file is UTF-8.
    return c.body(`\uFEFF${body}`, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit_log.csv"`,
      "Cache-Control": "no-store",
    });
  });
  return app;
}
