/**
 * The view's stock is read again only where a step wrote (view.ts): these tests hold it to the
 * store, and show the check once the world heals catches a write that escaped the log.
 */
import assert from "node:assert/strict";
import { keys } from "../../server/kv/keys.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import type { StockKey } from "../../shared/bom.ts";
import { checkSettled } from "./check.ts";
import { newModel } from "./model.ts";
import { readView, stockReadWhole } from "./view.ts";
import { createWorld, Violation } from "./world.ts";

Deno.test("a view reads the stock records a shop instance wrote since the last view", async () => {
  const world = await createWorld({ instances: 2, mode: "inline" });
  try {
    const model = newModel(0, new Map());
    const first = await readView(world, model);
    const [key, record] = [...first.stock][0] as [StockKey, StockRecord];
    const counted: StockRecord = { ...record, stock: record.stock + 7 };
    await world.instances[1].kv.set(keys.stock(key), counted);
    const second = await readView(world, model);
    assert.deepEqual(second.stock.get(key), counted);
    assert.deepEqual(second.stock, await stockReadWhole(world.store));
    // The first view is the store as it was, not changed by the later reading.
    assert.deepEqual(first.stock.get(key), record);
  } finally {
    world.close();
  }
});

Deno.test("a stock write that escaped the log fails the check once the world heals", async () => {
  const world = await createWorld({ instances: 1, mode: "inline" });
  try {
    const model = newModel(0, new Map());
    const [key, record] = [...(await readView(world, model)).stock][0] as [StockKey, StockRecord];
    // Written past the instances' KV, as no shop code can: the step-by-step reading misses it.
    await world.store.set(keys.stock(key), { ...record, stock: record.stock + 1 });
    await assert.rejects(
      () => checkSettled(model, world),
      (error) =>
        error instanceof Violation &&
        /the stock read step by step differs from the store read afresh/.test(error.message),
    );
  } finally {
    world.close();
  }
});

Deno.test("a view lists again a prefix a shop instance wrote under, and keeps the others", async () => {
  const world = await createWorld({ instances: 1, mode: "inline" });
  try {
    const model = newModel(0, new Map());
    assert.equal((await readView(world, model)).promoUses.size, 0);
    await world.instances[0].kv.set(["promo_uses", "SAVE10"], new Deno.KvU64(2n));
    const view = await readView(world, model);
    assert.equal(view.promoUses.get("SAVE10"), 2);
    assert.ok(view.products.size > 0, "the products, unwritten, are still in the view");
  } finally {
    world.close();
  }
});

Deno.test("any write that escaped the log fails the check once the world heals", async () => {
  const world = await createWorld({ instances: 1, mode: "inline" });
  try {
    const model = newModel(0, new Map());
    await readView(world, model);
    await world.store.set(["promo_uses", "SAVE10"], new Deno.KvU64(1n));
    await assert.rejects(
      () => checkSettled(model, world),
      (error) =>
        error instanceof Violation &&
        /the view read step by step differs from the store read afresh/.test(error.message),
    );
  } finally {
    world.close();
  }
});
