/**
 * Two drops may not decide who buys one product (server/drops/overlap.ts): a pack and its own
 * switch's drop, or two switches one pack holds, off sale or not; custom testers are no product.
 */
import assert from "node:assert/strict";
import { gatedProducts, sharedProduct } from "../../server/drops/overlap.ts";
import { PRODUCTS } from "../../shared/catalog/products.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { ITEMS } from "../../shared/catalog/items.ts";
import { SWITCHES } from "../../shared/catalog/switches.ts";

const STARTER = PACKS[0];
const IN_STARTER = STARTER.switchIds[0];
const IN_STARTER_TOO = STARTER.switchIds[1];
/** A switch no pack holds: its drop gates custom testers only. */
const LONE = SWITCHES.find((s) => !PACKS.some((p) => p.switchIds.includes(s.id)))!.id;
/** A pack without IN_STARTER. */
const OTHER_PACK = PACKS.find((p) => !p.switchIds.includes(IN_STARTER))!;

const switchDrop = (id: number) => ({ target: { kind: "switch" as const, id }, productIds: [] });
const packDrop = (pack: typeof STARTER) => ({
  target: { kind: "pack" as const, id: pack.id },
  productIds: [pack.id, pack.idWithKeycaps],
});
const itemDrop = (id: number) => ({ target: { kind: "item" as const, id }, productIds: [id] });

Deno.test("a switch's drop gates every product holding it; a pack's and an item's their own", () => {
  const holding = PRODUCTS.filter((p) =>
    p.bom.kind === "pack" && p.bom.switchIds.includes(IN_STARTER)
  );
  assert.ok(holding.length >= 2, "the Starter Pack with and without keycaps at least");
  assert.deepEqual(gatedProducts(switchDrop(IN_STARTER), PRODUCTS), holding);
  assert.deepEqual(gatedProducts(switchDrop(LONE), PRODUCTS), []);
  assert.deepEqual(
    gatedProducts(packDrop(STARTER), PRODUCTS).map((p) => p.id),
    [STARTER.id, STARTER.idWithKeycaps],
  );
  assert.deepEqual(gatedProducts(itemDrop(ITEMS[0].id), PRODUCTS).map((p) => p.id), [ITEMS[0].id]);
});

Deno.test("drops sharing a product are told apart from drops that share none", () => {
  // A pack and its own switch, either way round.
  assert.equal(sharedProduct(packDrop(STARTER), switchDrop(IN_STARTER), PRODUCTS)?.id, STARTER.id);
  assert.equal(sharedProduct(switchDrop(IN_STARTER), packDrop(STARTER), PRODUCTS)?.id, STARTER.id);
  // Two switches of one pack: the pack would need both drops' places.
  assert.equal(
    sharedProduct(switchDrop(IN_STARTER), switchDrop(IN_STARTER_TOO), PRODUCTS)?.id,
    STARTER.id,
  );
  // Nothing shared: another pack, a switch no pack holds, an item.
  assert.equal(sharedProduct(packDrop(OTHER_PACK), switchDrop(IN_STARTER), PRODUCTS), null);
  assert.equal(sharedProduct(switchDrop(LONE), switchDrop(IN_STARTER), PRODUCTS), null);
  assert.equal(sharedProduct(itemDrop(ITEMS[0].id), packDrop(STARTER), PRODUCTS), null);
  // A pack off sale still counts: the owner may put it back on sale while both drops last.
  const offSale = PRODUCTS.map((p) => p.packSlug === STARTER.slug ? { ...p, onSale: false } : p);
  assert.equal(sharedProduct(packDrop(STARTER), switchDrop(IN_STARTER), offSale)?.id, STARTER.id);
});
