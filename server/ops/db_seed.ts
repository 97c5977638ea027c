/**
 * `deno task db:seed`: migrates and seeds the store KV_PATH names (default ./data/shop.kv; a KV
 * Connect URL with DENO_KV_ACCESS_TOKEN works too) without starting the shop, as every start does
 * first: the catalogue, stock, promo codes and notice, written only where missing, so running it
 * on a store in use changes nothing the owner or sales changed.
 */
import { openKv } from "../kv/open.ts";
import { seedKv } from "./seed.ts";
import { kvPathFromEnv } from "./backup.ts";

async function main(): Promise<void> {
  const kvPath = kvPathFromEnv();
  const where = kvPath ?? "./data/shop.kv";
  const kv = await openKv(kvPath);
  try {
    const empty = (await kv.list({ prefix: [] }, { limit: 1 }).next()).done === true;
    await seedKv(kv);
    console.log(
      empty
        ? `Seeded the empty store at ${where}.`
        : `The store at ${where} already held data: only what was missing was written.`,
    );
  } finally {
    kv.close();
  }
}

if (import.meta.main) await main();
