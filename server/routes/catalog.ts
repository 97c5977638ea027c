import { Hono } from "hono";
import { z } from "zod";
import { type Bom, bomOf, switchKey, unitsAvailable } from "../../shared/bom.ts";
import { PACKS } from "../../shared/catalog/packs.ts";
import { itemImageUrl, packImageUrl, switchImageUrl } from "../../shared/images.ts";
import { toDollars } from "../../shared/pricing.ts";
import { idSchema } from "../../shared/schemas.ts";
import type { AppDeps } from "../deps.ts";
import { NotFound } from "../errors.ts";
import { findProduct, listProducts, listSwitches } from "../db/catalog.ts";
import { getStockCounts, listStock } from "../db/stock.ts";
import { validateParams } from "../middleware/validate.ts";

const idParam = z.object({ id: idSchema });

/** Whether one unit of something can be made from current stock. */
async function isAvailable(kv: Deno.Kv, bom: Bom): Promise<boolean> {
  const counts = await getStockCounts(kv, [...bom.keys()]);
  return unitsAvailable(bom, (k) => counts.get(k) ?? 0) > 0;
}

/** Switches, products and availability (SPEC.md section 7 'Catalogue'). */
export function catalogRoutes({ kv, imageBase }: AppDeps & { imageBase: string }): Hono {
  const app = new Hono();

  app.get("/switches", async (c) => {
    const [switches, stock] = await Promise.all([listSwitches(kv), listStock(kv)]);
    return c.json(switches.map((s) => ({
      id: s.id,
      name: s.name,
      brand: s.brand,
      type: s.type,
      force: s.force,
      image: s.image,
      imageUrl: switchImageUrl(imageBase, s.image),
      available: (stock.get(switchKey(s.id))?.stock ?? 0) > 0,
      extraPrice: toDollars(s.extraPriceCents),
      extraPriceCents: s.extraPriceCents,
      referralLink: s.referralLink,
      color: s.color,
    })));
  });

  app.get("/products", async (c) => {
    const [products, stock] = await Promise.all([listProducts(kv), listStock(kv)]);
    return c.json(
      products.sort((a, b) => a.id - b.id).map((p) => ({
        id: p.id,
        name: p.name,
        price: toDollars(p.priceCents),
        priceCents: p.priceCents,
        image: p.image,
        imageUrl: p.packSlug ? packImageUrl(imageBase, p.image) : itemImageUrl(imageBase, p.image),
        path: p.path,
        packSlug: p.packSlug,
        withKeycaps: p.withKeycaps,
        available: unitsAvailable(bomOf(p.bom), (k) => stock.get(k)?.stock ?? 0) > 0,
      })),
    );
  });

  app.get("/packs/:slug", async (c) => {
    const pack = PACKS.find((p) => p.slug === c.req.param("slug"));
    if (!pack) throw new NotFound(`No tester pack called ${c.req.param("slug")}`);
    const switches = await listSwitches(kv);
    const byId = new Map(switches.map((s) => [s.id, s]));
    const [plain, withKeycaps] = await Promise.all([
      findProduct(kv, pack.id),
      findProduct(kv, pack.idWithKeycaps),
    ]);
    if (!plain || !withKeycaps) throw new NotFound(`The ${pack.title} is not sold right now`);
    return c.json({
      id: pack.id,
      idWithKeycaps: pack.idWithKeycaps,
      slug: pack.slug,
      title: pack.title,
      description: pack.description,
      image: pack.image,
      imageUrl: packImageUrl(imageBase, pack.image),
      basePrice: toDollars(plain.priceCents),
      basePriceCents: plain.priceCents,
      priceWithKeycapsCents: withKeycaps.priceCents,
      switches: pack.switchIds.flatMap((id) => {
        const s = byId.get(id);
        return s
          ? [{
            id: s.id,
            name: s.name,
            brand: s.brand,
            referralLink: s.referralLink,
            imageUrl: switchImageUrl(imageBase, s.image),
          }]
          : [];
      }),
    });
  });

  for (const kind of ["testers", "items"] as const) {
    app.get(`/${kind}/:id/availability`, validateParams(idParam), async (c) => {
      const { id } = c.req.valid("param");
      const product = await findProduct(kv, id);
      const isRightKind = product && (kind === "testers" ? !!product.packSlug : !product.packSlug);
      if (!product || !isRightKind) {
        throw new NotFound(`No ${kind === "testers" ? "tester" : "item"} with id ${id}`);
      }
      return c.json({ available: await isAvailable(kv, bomOf(product.bom)) });
    });
  }
  return app;
}
