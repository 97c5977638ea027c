/**
 * The dashboard's Ship Orders confirmation sends the orders it listed. It lists every ready order
 * (all pages), while the server takes a bounded list per request: the owner must still be able to
 * ship them all, however many are waiting.
 */
import assert from "node:assert/strict";
import { shipChosenOrders } from "../../client/features/admin/admin_api.ts";
import { shipChosenSchema } from "../../shared/schemas.ts";
import { json, stubFetch, stubLocation } from "./client_stubs.ts";

Deno.test("confirming more ready orders than one request may carry ships every one of them", async () => {
  const restoreLocation = stubLocation();
  // Answers as the server does: its own schema first, then every listed order shipped.
  const { requests, restore } = stubFetch(({ body }) => {
    const parsed = shipChosenSchema.safeParse(body);
    if (!parsed.success) return json({ error: parsed.error.issues[0].message }, 400);
    return json({ shippedCount: parsed.data.orderNumbers?.length ?? 0, skipped: [] });
  });
  try {
    const listed = Array.from({ length: 1201 }, (_, i) => `ST${String(i).padStart(8, "0")}`);
    const result = await shipChosenOrders(listed);
    assert.deepEqual(result, { shippedCount: 1201, skipped: [] });
    const sent = requests.flatMap((r) => (r.body as { orderNumbers: string[] }).orderNumbers);
    assert.deepEqual(sent, listed, "each listed order sent once, none other");
  } finally {
    restore();
    restoreLocation();
  }
});

Deno.test("orders not shipped in any part are all reported", async () => {
  const restoreLocation = stubLocation();
  const { restore } = stubFetch(({ body }) => {
    const { orderNumbers } = shipChosenSchema.parse(body);
    const skipped = orderNumbers!.filter((n) => n.endsWith("7"))
      .map((orderNumber) => ({ orderNumber, reason: "It is SHIPPED, not PROCESSING" }));
    return json({ shippedCount: orderNumbers!.length - skipped.length, skipped });
  });
  try {
    const listed = Array.from({ length: 600 }, (_, i) => `ST${String(i).padStart(8, "0")}`);
    const result = await shipChosenOrders(listed);
    assert.equal(result.shippedCount, 540);
    assert.equal(result.skipped.length, 60);
    assert.ok(result.skipped.some((s) => s.orderNumber === "ST00000597"), "from the second part");
  } finally {
    restore();
    restoreLocation();
  }
});

Deno.test("an order listed twice is sent once, so it is not reported as not shipped", async () => {
  const restoreLocation = stubLocation();
  const shipped = new Set<string>();
  const { restore } = stubFetch(({ body }) => {
    const { orderNumbers } = shipChosenSchema.parse(body);
    const skipped = orderNumbers!.filter((n) => shipped.has(n))
      .map((orderNumber) => ({ orderNumber, reason: "It is SHIPPED, not PROCESSING" }));
    for (const n of orderNumbers!) shipped.add(n);
    return json({ shippedCount: orderNumbers!.length - skipped.length, skipped });
  });
  try {
    const listed = Array.from({ length: 700 }, (_, i) => `ST${String(i).padStart(8, "0")}`);
    const result = await shipChosenOrders([...listed, listed[3]]);
    assert.deepEqual(result, { shippedCount: 700, skipped: [] });
  } finally {
    restore();
    restoreLocation();
  }
});
