/**
 * Reading the audit log (GET /api/admin/audit, /audit/actors, /audit.csv): newest first, filtered
 * by actor and kind, a page at a time with a cursor, exported as formula-safe CSV (the export
 * itself recorded); a change whose write fails leaves no entry behind; the old catalogue history
 * moves into the log without losing an edit.
 */
import assert from "node:assert/strict";
import { bearer, createTestApp, TEST_ADMIN_PASSWORD, type TestApp } from "../helpers/test_app.ts";
import { paidOrder } from "../helpers/shop_fixtures.ts";
import type { AuditEntryView } from "../../shared/api_types.ts";
import type { Actor } from "../../server/audit/actor.ts";
import { auditEntry, auditInto, type AuditKind } from "../../server/audit/log.ts";
import { keys } from "../../server/kv/keys.ts";
import { moveEditsToAudit } from "../../server/ops/migrations.ts";

const OWNER = bearer(TEST_ADMIN_PASSWORD);

/** A staff member and an API key, as the other parts of the dashboard will name them. */
const HELPER: Actor = {
  kind: "staff",
  id: "m1",
  name: "helper@example.com",
  role: "staff",
  from: "198.51.100.7",
};
const SCRIPT: Actor = {
  kind: "key",
  id: "k1",
  name: '=HYPERLINK("x")',
  role: "staff",
  from: "::1",
};

/** Records `n` entries of `actor` and `kind`, a second apart, as a write of theirs would. */
async function record(t: TestApp, actor: Actor, kind: AuditKind, n: number, action = "test.did") {
  for (let i = 0; i < n; i++) {
    t.clock.advance(1000);
    const op = t.kv.atomic();
    auditInto(op, auditEntry(t.clock, actor, { kind, action, target: `${actor.id}-${i}` }));
    assert.ok((await op.commit()).ok);
  }
}

async function get(t: TestApp, path: string, status = 200) {
  const res = await t.request(path, { headers: OWNER });
  assert.equal(res.status, status, `${path}: ${res.text}`);
  return res;
}

function targets(entries: AuditEntryView[]): string[] {
  return entries.map((e) => e.target ?? "");
}

Deno.test("GET /api/admin/audit: newest first, filtered by actor (id or name) and kind, paged by a cursor", async () => {
  await using t = await createTestApp();
  await record(t, HELPER, "orders", 3);
  await record(t, SCRIPT, "stock", 2);
  await record(t, HELPER, "stock", 1);

  const all = (await get(t, "/api/admin/audit")).json as AuditEntryView[];
  assert.deepEqual(targets(all), ["m1-0", "k1-1", "k1-0", "m1-2", "m1-1", "m1-0"]);
  assert.deepEqual(all[0].actor, { kind: "staff", id: "m1", name: "helper@example.com" });
  assert.equal(all[0].from, "198.51.100.7");
  assert.equal(all[0].kind, "stock");
  assert.match(all[0].at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

  assert.deepEqual(targets((await get(t, "/api/admin/audit?actor=m1")).json), [
    "m1-0",
    "m1-2",
    "m1-1",
    "m1-0",
  ]);
  assert.deepEqual(
    targets((await get(t, "/api/admin/audit?actor=HELPER@example.com&kind=stock")).json),
    ["m1-0"],
    "a name (any case) stands for its account; both filters at once",
  );
  assert.deepEqual(targets((await get(t, "/api/admin/audit?kind=stock")).json), [
    "m1-0",
    "k1-1",
    "k1-0",
  ]);
  assert.deepEqual((await get(t, "/api/admin/audit?actor=nobody")).json, []);

  const first = await get(t, "/api/admin/audit?actor=m1&limit=3");
  assert.deepEqual(targets(first.json), ["m1-0", "m1-2", "m1-1"]);
  const cursor = first.headers.get("X-Next-Cursor");
  assert.ok(cursor, "a cursor to the older page");
  const older = await get(t, `/api/admin/audit?actor=m1&limit=3&before=${cursor}`);
  assert.deepEqual(targets(older.json), ["m1-0"]);
  assert.equal(older.headers.get("X-Next-Cursor"), null, "the last page has none");

  const actors = (await get(t, "/api/admin/audit/actors")).json;
  assert.deepEqual(actors.map((a: { id: string }) => a.id).sort(), ["k1", "m1"]);
});

Deno.test("GET /api/admin/audit: bad filters are 400 with a sentence; the log is the owner's, 401 without", async () => {
  await using t = await createTestApp();
  for (
    const [query, message] of [
      ["kind=everything", /kind is one of orders/],
      ["limit=0", /limit is at least 1/],
      ["limit=501", /limit is at most 500/],
      ["limit=ten", /limit must be a number/],
      ["before=yesterday", /before is a cursor/],
    ]
  ) {
    const res = await get(t, `/api/admin/audit?${query}`, 400);
    assert.match(res.json.error, message as RegExp, query as string);
  }
  assert.equal((await t.request("/api/admin/audit")).status, 401);
  assert.equal((await t.request("/api/admin/audit.csv")).status, 401);
  assert.equal((await t.request("/api/admin/audit/actors")).status, 401);
});

Deno.test("a limit of 1 to 500, 100 unless told", async () => {
  await using t = await createTestApp();
  await record(t, HELPER, "orders", 101);
  assert.equal((await get(t, "/api/admin/audit")).json.length, 100);
  assert.equal((await get(t, "/api/admin/audit?limit=500")).json.length, 101);
  assert.equal((await get(t, "/api/admin/audit?limit=1")).json.length, 1);
});

Deno.test("GET /api/admin/audit.csv: the filtered entries, formula-safe, and the export itself recorded", async () => {
  await using t = await createTestApp();
  await record(t, SCRIPT, "stock", 1, "stock.counted");
  await record(t, HELPER, "orders", 1);
  const csv = await get(t, "/api/admin/audit.csv?kind=stock");
  assert.match(csv.headers.get("content-type") ?? "", /^text\/csv/);
  assert.match(
    csv.headers.get("content-disposition") ?? "",
    /attachment; filename="audit_log\.csv"/,
  );
  const rows = csv.text.replace(/^\uFEFF/, "").trim().split("\r\n");
  assert.equal(rows.length, 2, "the header and the one stock entry");
  assert.equal(
    rows[0],
    '"at","actor","actor kind","from","kind","action","target","changes","detail"',
  );
  assert.ok(
    rows[1].includes(`"'=HYPERLINK(""x"")","key"`),
    `a name that would run as a formula is kept as text: ${rows[1]}`,
  );
  const [exported] = (await get(t, "/api/admin/audit?kind=export")).json as AuditEntryView[];
  assert.equal(exported.action, "export.audit");
  assert.equal(exported.target, "kind stock");
  assert.equal(exported.detail, "1 row");
  assert.deepEqual(exported.actor, { kind: "owner", id: "owner", name: "Owner" });
});

/** `kv` whose next `failures.left` commits fail as a changed record's check would. */
function failingCommits(kv: Deno.Kv, failures: { left: number }): Deno.Kv {
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = () =>
            failures.left-- > 0 ? Promise.resolve({ ok: false } as Deno.KvCommitError) : commit();
          return op;
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

Deno.test("a write that fails its check leaves no entry; the retry that commits leaves one", async () => {
  await using store = await Deno.openKv(":memory:");
  const failures = { left: 0 };
  await using t = await createTestApp({ kv: failingCommits(store, failures) });
  const { orderNumber } = await paidOrder(t);
  failures.left = 1;
  const res = await t.request(`/api/admin/orders/${orderNumber}/tracking`, {
    method: "POST",
    headers: OWNER,
    body: { trackingNumber: "9400 1000 0000 0000 0001" },
  });
  assert.equal(res.status, 200, res.text);
  const entries = (await get(t, "/api/admin/audit?kind=orders")).json as AuditEntryView[];
  assert.deepEqual(entries.map((e) => e.action), ["order.tracking"], "one entry, no orphan");

  failures.left = 1_000;
  const lost = await t.request(`/api/admin/orders/${orderNumber}/delivered`, {
    method: "POST",
    headers: OWNER,
  });
  failures.left = 0;
  assert.ok(lost.status >= 400, "never written");
  const after = (await get(t, "/api/admin/audit?kind=orders")).json as AuditEntryView[];
  assert.equal(after.length, 1, "a change never committed has no entry");
  let stored = 0;
  for await (const _ of t.kv.list({ prefix: keys.audits() })) stored++;
  assert.equal(stored, 1, "nor any stored");
});

Deno.test("migration: the old catalogue history becomes the owner's audit entries, the history answer unchanged", async () => {
  await using t = await createTestApp();
  const at = t.clock.now() - 60_000;
  const legacy = [
    {
      id: "old1",
      at,
      kind: "promo",
      target: "SPRING5",
      action: "created",
      changes: [{ field: "percentOff", from: null, to: 5 }],
    },
    {
      id: "old2",
      at: at + 1000,
      kind: "switch",
      target: "150",
      label: "Gateron Tidal Blue",
      action: "updated",
      changes: [{ field: "extraPrice", from: 0.75, to: 1.25 }],
    },
    {
      id: "old3",
      at: at + 2000,
      kind: "notice",
      target: "notice",
      action: "updated",
      changes: [{ field: "text", from: "", to: "Back Monday." }],
    },
  ];
  for (const edit of legacy) await t.kv.set(keys.edit(edit.at, edit.id), edit);
  await moveEditsToAudit(t.kv);
  await moveEditsToAudit(t.kv); // a second run (after a crash) moves nothing twice

  const history = (await get(t, "/api/admin/catalog/history")).json;
  assert.deepEqual(history, [
    {
      id: "old3",
      at: new Date(at + 2000).toISOString(),
      kind: "notice",
      target: "notice",
      label: null,
      action: "updated",
      changes: [{ field: "text", from: "", to: "Back Monday." }],
      names: {},
    },
    {
      id: "old2",
      at: new Date(at + 1000).toISOString(),
      kind: "switch",
      target: "150",
      label: "Gateron Tidal Blue",
      action: "updated",
      changes: [{ field: "extraPrice", from: 0.75, to: 1.25 }],
      names: {},
    },
    {
      id: "old1",
      at: new Date(at).toISOString(),
      kind: "promo",
      target: "SPRING5",
      label: null,
      action: "created",
      changes: [{ field: "percentOff", from: null, to: 5 }],
      names: {},
    },
  ]);
  const entries = (await get(t, "/api/admin/audit")).json as AuditEntryView[];
  assert.deepEqual(entries.map((e) => [e.action, e.actor.name, e.from]), [
    ["notice.updated", "Owner", "unknown"],
    ["switch.updated", "Owner", "unknown"],
    ["promo.created", "Owner", "unknown"],
  ]);
  let left = 0;
  for await (const _ of t.kv.list({ prefix: keys.edits() })) left++;
  assert.equal(left, 0, "the old key space is gone");
});

Deno.test("the log is the owner's: a staff key is refused with a 403 naming the owner, on every audit route", async () => {
  await using t = await createTestApp({ seed: false });
  const made = await t.request("/api/admin/api-keys", {
    method: "POST",
    body: { name: "Packing script", role: "staff" },
    headers: OWNER,
  });
  assert.equal(made.status, 201, made.text);
  for (const path of ["/api/admin/audit", "/api/admin/audit/actors", "/api/admin/audit.csv"]) {
    const res = await t.request(path, { headers: bearer(made.json.key) });
    assert.equal(res.status, 403, path);
    assert.match(res.json.error, /^Only the owner can read the audit log/, path);
  }
});
