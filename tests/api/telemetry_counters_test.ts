/**
 * The shop's counters count what happened, once: a lapsed hold, a refund refused then issued.
 * These need the test clock (a hold lapses after 30 minutes), so they run in this process with a
 * recording meter provider in place of Deno's exporter (tests/api/telemetry_test.ts shows the
 * real export). The provider is registered before the shop's modules load, since they make their
 * counters when loaded: everything of the shop is imported dynamically below.
 */
import assert from "node:assert/strict";
import { type Attributes, type MeterProvider, metrics } from "@opentelemetry/api";

/** Every counter addition the shop made, in order. */
const added: { name: string; value: number; attributes?: Attributes }[] = [];

const recording = {
  getMeter: () => ({
    createCounter: (name: string) => ({
      add: (value: number, attributes?: Attributes) => added.push({ name, value, attributes }),
    }),
  }),
} as unknown as MeterProvider;
assert.ok(metrics.setGlobalMeterProvider(recording), "the recording meter provider is in place");

const { createTestApp, refundsDownWhile } = await import("../helpers/test_app.ts");
const { paidOrder, startHostedCheckout } = await import("../helpers/shop_fixtures.ts");
const { expireIfLapsed, sweepHolds } = await import("../../server/orders/expiry.ts");
const { settleRefund } = await import("../../server/orders/refunds.ts");

/** The total added to counter `name` since `from` (an index into `added`). */
function total(name: string, from = 0): number {
  return added.slice(from).filter((a) => a.name === name).reduce((sum, a) => sum + a.value, 0);
}

Deno.test("a lapsed hold is counted once, however often the expiry runs", async () => {
  await using t = await createTestApp();
  const from = added.length;
  const { orderNumber } = await startHostedCheckout(t);
  t.clock.advance(31 * 60_000);
  // The queue's job (delivered twice, as it may be) and the start sweep, at once.
  await Promise.all([
    expireIfLapsed(t, orderNumber),
    expireIfLapsed(t, orderNumber),
    sweepHolds(t),
  ]);
  assert.equal(total("shop.holds.expired", from), 1);
  assert.equal(total("shop.orders.paid", from), 0);
});

Deno.test("a refund refused then made is counted as refused, then issued once", async () => {
  let refuse = true;
  await using t = await createTestApp({ payments: refundsDownWhile(() => refuse) });
  const from = added.length;
  const { orderNumber } = await paidOrder(t);
  assert.equal(total("shop.orders.paid", from), 1);
  const cancelled = await t.request(`/api/admin/orders/${orderNumber}/cancel`, {
    method: "POST",
    headers: { Authorization: `Bearer ${t.config.adminPassword}` },
  });
  assert.equal(cancelled.status, 200, cancelled.text);
  assert.equal(total("shop.refunds.refused", from), 1);
  assert.equal(total("shop.refunds.issued", from), 0);
  refuse = false;
  await settleRefund(t, orderNumber);
  await settleRefund(t, orderNumber);
  assert.equal(total("shop.refunds.issued", from), 1);
  assert.equal(total("shop.refunds.failed", from), 0);
});

Deno.test("a stored job that throws is counted each time it is put back, by its type", async () => {
  const { queueEmail } = await import("../../server/email/outbox.ts");
  const { runDueJobs } = await import("../../server/queue.ts");
  await using t = await createTestApp({ seed: false });
  const from = added.length;
  await queueEmail(t.kv, t.clock, { to: "a@example.com", subject: "Hi", text: "Hi", html: "Hi" });
  // The store fails the job's first read twice, then answers.
  let failures = 2;
  const kv = new Proxy(t.kv, {
    get(target, prop) {
      if (prop === "get") {
        return (...args: Parameters<Deno.Kv["get"]>) =>
          failures-- > 0 ? Promise.reject(new Error("store hiccup")) : target.get(...args);
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  for (let i = 0; i < 3; i++) {
    await runDueJobs({ ...t, kv });
    t.clock.advance(60_000);
  }
  assert.equal(total("shop.jobs.retried", from), 2);
  assert.deepEqual(added.slice(from).filter((a) => a.name === "shop.jobs.retried")[0].attributes, {
    type: "email",
  });
  assert.equal(t.mailer.sent.length, 1);
});
