/**
 * A step's view reads again only what was written since the last one (view.ts): these tests hold
 * it to the store, and show the check once the world heals catches a write that escaped the log.
 */
import assert from "node:assert/strict";
import { keys } from "../../server/kv/keys.ts";
import type { StockRecord } from "../../server/stock/record.ts";
import type { StockKey } from "../../shared/bom.ts";
import { checkSettled } from "./check.ts";
import { type Model, newModel } from "./model.ts";
import { readView, stockReadWhole } from "./view.ts";
import { createWorld, Violation, type World } from "./world.ts";

/** Runs `fn` in a fresh world of `instances` processes with an empty model, closing it after. */
async function inWorld(instances: number, fn: (world: World, model: Model) => Promise<void>) {
  const world = await createWorld({ instances, mode: "inline" });
  try {
    await fn(world, newModel(0, new Map()));
  } finally {
    world.close();
  }
}

/** The check once the world heals fails with a violation matching `message`. */
async function settleFails(model: Model, world: World, message: RegExp): Promise<void> {
  await assert.rejects(
    () => checkSettled(model, world),
    (error) => error instanceof Violation && message.test(error.message),
  );
}

Deno.test("a view reads the stock records a shop instance wrote since the last view", async () => {
  await inWorld(2, async (world, model) => {
    const first = await readView(world, model);
    const [key, record] = [...first.stock][0] as [StockKey, StockRecord];
    const counted: StockRecord = { ...record, stock: record.stock + 7 };
    await world.instances[1].kv.set(keys.stock(key), counted);
    const second = await readView(world, model);
    assert.deepEqual(second.stock.get(key), counted);
    assert.deepEqual(second.stock, await stockReadWhole(world.store));
    // The first view is the store as it was, not changed by the later reading.
    assert.deepEqual(first.stock.get(key), record);
  });
});

Deno.test("a stock write that escaped the log fails the check once the world heals", async () => {
  await inWorld(1, async (world, model) => {
    const [key, record] = [...(await readView(world, model)).stock][0] as [StockKey, StockRecord];
    // Written past the instances' KV, as no shop code can: the step-by-step reading misses it.
    await world.store.set(keys.stock(key), { ...record, stock: record.stock + 1 });
    await settleFails(model, world, /the stock read step by step differs from the store/);
  });
});

Deno.test("a view lists again a prefix a shop instance wrote under, and keeps the others", async () => {
  await inWorld(1, async (world, model) => {
    assert.equal((await readView(world, model)).promoUses.size, 0);
    await world.instances[0].kv.set(["promo_uses", "SAVE10"], new Deno.KvU64(2n));
    const view = await readView(world, model);
    assert.equal(view.promoUses.get("SAVE10"), 2);
    assert.ok(view.products.size > 0, "the products, unwritten, are still in the view");
  });
});

Deno.test("any write that escaped the log fails the check once the world heals", async () => {
  await inWorld(1, async (world, model) => {
    await readView(world, model);
    await world.store.set(["promo_uses", "SAVE10"], new Deno.KvU64(1n));
    await settleFails(model, world, /the view read step by step differs from the store/);
  });
});
