import type {
  AvailabilityView,
  BuildStockView,
  PackView,
  ProductView,
} from "../../shared/api_types.ts";
import { type BuildStock, cubeBodyProblem, testerProblem } from "../../shared/build_rules.ts";
import { CUBE_BASE_CENTS, CUBE_SIZE, TESTER_BASE_CENTS } from "../../shared/pricing.ts";
import { SHOP_CONTACT_EMAIL, SHOP_NAME } from "../../shared/policy.ts";
import type { PageInfo } from "../../shared/routes.ts";
import { PACK_INFO } from "../../shared/catalog/pack_info.ts";
import { previewImagePath } from "./page_meta.ts";

/** One schema.org JSON-LD object. */
type Thing = Record<string, unknown>;

/** Loads an answer of the shop's GET API (undefined when refused), as the page render does. */
export type Answer = (path: string) => Promise<unknown>;

const IN_STOCK = "https://schema.org/InStock";
const OUT_OF_STOCK = "https://schema.org/OutOfStock";
const DISCONTINUED = "https://schema.org/Discontinued";

/**
 * The structured data of a page, for search engines: the shop and its site on the home page, a
 * Product with its Offer (price in USD, availability from live stock) on each pack and
 * configurator page, and the list of products on the shop page. Built from the same API answers
 * the page was rendered with, so it never disagrees with what the shopper reads.
 */
export async function structuredData(
  page: PageInfo,
  origin: string,
  answer: Answer,
): Promise<Thing[]> {
  const url = `${origin}${page.path === "/" ? "/" : page.path}`;
  const image = `${origin}${previewImagePath(page)}`;
  if (page.path === "/") {
    return [
      {
        "@context": "https://schema.org",
        "@type": "Organization",
        name: SHOP_NAME,
        url,
        logo: image,
        email: SHOP_CONTACT_EMAIL,
      },
      { "@context": "https://schema.org", "@type": "WebSite", name: SHOP_NAME, url },
    ];
  }
  const slug = PACK_INFO.find((p) => `/testers/${p.slug}` === page.path)?.slug;
  if (slug) {
    const pack = await answer(`/api/packs/${slug}`) as PackView | undefined;
    if (!pack) return [];
    const stock = await answer(`/api/testers/${pack.id}/availability`) as
      | AvailabilityView
      | undefined;
    const availability = !pack.onSale ? DISCONTINUED : stock?.available ? IN_STOCK : OUT_OF_STOCK;
    return [{
      "@context": "https://schema.org",
      ...product(pack.title, pack.description, pack.id, image, url),
      additionalProperty: pack.switches.map((s) => ({
        "@type": "PropertyValue",
        name: "Switch",
        value: `${s.brand} ${s.name}`,
      })),
      offers: offer(pack.basePriceCents, availability, url),
    }];
  }
  if (page.path === "/testers/custom" || page.path === "/testers/fidget-cube") {
    const view = await answer("/api/build-stock") as BuildStockView | undefined;
    if (!view) return [];
    const cube = page.path === "/testers/fidget-cube";
    return [{
      "@context": "https://schema.org",
      ...product(page.title, page.description, cube ? "fidget-cube" : "custom", image, url),
      // The starting price: the switches the shopper picks may add to it.
      offers: offer(
        cube ? CUBE_BASE_CENTS : TESTER_BASE_CENTS[10],
        canBuild(view, cube) ? IN_STOCK : OUT_OF_STOCK,
        url,
      ),
    }];
  }
  const products = await answer("/api/products") as ProductView[] | undefined;
  if (!products || page.path !== "/shop") return [];
  {
    return [{
      "@context": "https://schema.org",
      "@type": "ItemList",
      itemListElement: products.filter((p) => !p.withKeycaps).map((p, i) => {
        const at = `${origin}${p.path ?? "/shop"}`;
        return {
          "@type": "ListItem",
          position: i + 1,
          item: {
            ...product(p.name, p.name, p.id, absolute(origin, p.imageUrl), at),
            offers: offer(p.priceCents, p.available ? IN_STOCK : OUT_OF_STOCK, at),
          },
        };
      }),
    }];
  }
}

/** Whether the smallest build of a configurator can be made from the shelf now. */
function canBuild(view: BuildStockView, cube: boolean): boolean {
  const components = new Map(view.components.map((c) => [c.name, c.available]));
  const stock: BuildStock = {
    component: (name) => components.get(name) ?? 0,
    switchUnits: (id) => view.switches.find((s) => s.id === id)?.available ?? 0,
  };
  const switches = view.switches.filter((s) => s.available > 0).length;
  return cube
    ? cubeBodyProblem(stock) === null && switches >= CUBE_SIZE
    : testerProblem({ size: 10, keycaps: "none" }, stock) === null && switches >= 10;
}

function product(
  name: string,
  description: string,
  sku: number | string,
  image: string,
  url: string,
) {
  return {
    "@type": "Product",
    name,
    description,
    sku: String(sku),
    image,
    url,
    brand: { "@type": "Brand", name: SHOP_NAME },
  };
}

function offer(cents: number, availability: string, url: string): Thing {
  return {
    "@type": "Offer",
    // schema.org's price is a plain decimal: "9.99", never "$9.99".
    price: (cents / 100).toFixed(2),
    priceCurrency: "USD",
    availability,
    url,
  };
}

function absolute(origin: string, url: string): string {
  return /^https?:\/\//.test(url) ? url : `${origin}${url}`;
}
