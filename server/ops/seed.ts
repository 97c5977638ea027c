import { seedCatalog } from "../catalog/store.ts";
import { seedStock } from "../stock/store.ts";
import { seedPromoCodes } from "../promos/store.ts";
import { seedNotice } from "../catalog/notice_store.ts";
import { migrate } from "./migrations.ts";
import { allLanded } from "../kv/kv_util.ts";
import { type Clock, systemClock } from "../clock.ts";

/**
 * Writes the catalogue, initial stock, promo codes and the notice into KV where absent. Safe to
 * run at every start: what the owner or sales changed since is never overwritten.
 */
export async function seedKv(kv: Deno.Kv, clock: Clock = systemClock): Promise<void> {
  // Stored data first takes today's shape, so the seeding below never meets an old one.
  const { newStore } = await migrate(kv, clock);
  // A seeder that fails stops the start only once the others' writes have landed: the process
  // then exits or closes the store (db_seed.ts) with nothing of the seed still on its way.
  await allLanded([
    seedCatalog(kv, clock, newStore),
    seedStock(kv, clock, newStore),
    seedPromoCodes(kv, clock.now(), newStore),
    seedNotice(kv, clock.now(), newStore),
  ]);
}
