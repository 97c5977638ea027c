/**
 * The audit log's pure rules: an entry's changes in one line, the cursor of a page, an old
 * catalogue edit as an audit entry and back, and the CSV's escaping.
 */
import assert from "node:assert/strict";
import { summariseChanges } from "../../shared/audit.ts";
import { auditCursor, parseAuditCursor } from "../../server/audit/read.ts";
import {
  auditEntryAsEdit,
  editAsAuditEntry,
  type EditRecord,
} from "../../server/catalog/history.ts";
import { auditCsv, rowsText } from "../../server/audit/export.ts";
import type { AuditEntry } from "../../server/audit/log.ts";

Deno.test("changes read as one line: old -> new, a creation's value alone, nothing as none", () => {
  assert.equal(
    summariseChanges({ price: { from: 12, to: 14 }, active: { from: true, to: false } }),
    "price 12 -> 14; active true -> false",
  );
  assert.equal(summariseChanges({ code: { from: null, to: "SPRING5" } }), "code SPRING5");
  assert.equal(summariseChanges({ text: { from: "Hi", to: "" } }), "text Hi -> none");
  assert.equal(
    summariseChanges({ switchIds: { from: [1, 2], to: [1, 3] } }),
    "switchIds 1, 2 -> 1, 3",
  );
  assert.equal(summariseChanges(undefined), "");
});

Deno.test("a cursor is the entry's time and id, and only such a string is read back", () => {
  const cursor = auditCursor({ at: 1_790_000_000_000, id: "Ab-_0123456" });
  assert.equal(cursor, "1790000000000.Ab-_0123456");
  assert.deepEqual(parseAuditCursor(cursor), { at: 1_790_000_000_000, id: "Ab-_0123456" });
  for (
    const bad of [
      "",
      "1.5",
      "x.abcdefgh",
      "1790000000000",
      "1.abc/defgh",
      "99999999999999999.abcdefgh",
    ]
  ) {
    assert.equal(parseAuditCursor(bad), null, bad);
  }
});

Deno.test("an old catalogue edit becomes an audit entry of its kind and reads back the same", () => {
  const edit: EditRecord = {
    id: "e1",
    at: 1000,
    kind: "pack",
    target: "7",
    label: "Starter Pack",
    action: "updated",
    changes: [{ field: "price", from: 10, to: 12 }, { field: "switchIds", from: [1], to: [2] }],
    names: { "1": "A", "2": "B" },
  };
  const owner = { kind: "owner" as const, id: "owner", name: "Owner" };
  const entry = editAsAuditEntry(edit, owner, "unknown");
  assert.equal(entry.kind, "catalog");
  assert.equal(entry.action, "pack.updated");
  assert.deepEqual(entry.changes, {
    price: { from: 10, to: 12 },
    switchIds: { from: [1], to: [2] },
  });
  assert.deepEqual(auditEntryAsEdit(entry), edit, "the history reads it as it was");
  assert.equal(editAsAuditEntry({ ...edit, kind: "promo" }, owner, "").kind, "promos");
  assert.equal(editAsAuditEntry({ ...edit, kind: "notice" }, owner, "").kind, "notice");
  assert.equal(auditEntryAsEdit({ ...entry, action: "order.shipped" }), null, "not an edit");
});

Deno.test("the CSV keeps a formula as text and quotes every field", () => {
  const entry: AuditEntry = {
    id: "x",
    at: Date.UTC(2026, 10, 21, 12),
    actor: { kind: "key", id: "k", name: "=cmd|' /C calc'!A0" },
    from: "127.0.0.1",
    kind: "stock",
    action: "stock.counted",
    target: "switch:150",
    changes: { stock: { from: 3, to: 5 } },
  };
  const [header, row] = auditCsv([entry]).trim().split("\r\n");
  assert.match(header, /^"at","actor"/);
  assert.equal(
    row,
    `"2026-11-21T12:00:00.000Z","'=cmd|' /C calc'!A0","key","127.0.0.1","stock","stock.counted","switch:150","stock 3 -> 5",""`,
  );
  assert.equal(rowsText(1), "1 row");
  assert.equal(rowsText(0), "0 rows");
});
