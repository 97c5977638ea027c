import { Link } from "react-router-dom";
import { toast } from "react-hot-toast";
import type { PackView, ProductView } from "../../../shared/api_types.ts";
import { ITEMS } from "../../../shared/catalog/items.ts";
import { PACK_INFO } from "../../../shared/catalog/pack_info.ts";
import { cubeImageUrl, itemImageUrl, packImageUrl } from "../../../shared/images.ts";
import {
  CUBE_BASE_CENTS,
  formatCents,
  PACK_BASE_CENTS,
  TESTER_BASE_CENTS,
} from "../../../shared/pricing.ts";
import { api, errorMessage } from "../../app/api.ts";
import { addItemToCart } from "../../app/cart/cart_service.ts";
import { ProductCard } from "../../app/components/product_card.tsx";
import { IMAGE_BASE } from "../../app/image_base.ts";
import { usePacks } from "../../app/use_packs.ts";
import { useApiRequest } from "../../app/use_request.ts";

/** The themed packs the shop lists (docs/product.md#shop: Starter, Popular, Linear, Tactile). */
const THEMED_PACK_IDS = [384, 380, 386, 382];

/**
 * Products as the server sells them (names, prices, on sale), by id; null until loaded or when
 * loading failed.
 */
function useProducts(): Map<number, ProductView> | null {
  const request = useApiRequest("/api/products", byId, async (signal) => {
    try {
      return await api<ProductView[]>("/api/products", { signal });
    } catch (err) {
      // The names and prices below are the seeded ones, so the page stays usable without this.
      if (!signal.aborted) console.warn("Product prices could not be loaded", err);
      throw err;
    }
  });
  return request.data;
}

function byId(products: ProductView[]): Map<number, ProductView> {
  return new Map(products.map((p) => [p.id, p]));
}

/**
 * Adds a product with the shop page's toasts (docs/product.md#shop-messages). Not
 * toastAddFailed: that keeps an error up for 4 s, the shop's error has always used the 2 s default.
 */
async function addWithToast(id: number): Promise<void> {
  try {
    await addItemToCart(id);
    toast.success("Item added to cart");
  } catch (err) {
    toast.error(errorMessage(err, "Error adding item to cart"));
  }
}

/** A themed pack as the shop lists it. */
interface PackCard {
  id: number;
  slug: string;
  title: string;
  description: string;
  image: string;
  /** The server's URL (an uploaded image, if any); absent until GET /api/packs answered. */
  imageUrl?: string;
  priceCents: number;
}

/**
 * The themed packs the shop lists, as the owner last edited them once GET /api/packs answered
 * (packs taken off sale leave the list); until then, the seeded titles and base price.
 */
function themedPacks(loaded: PackView[] | null): PackCard[] {
  if (!loaded) {
    return THEMED_PACK_IDS.map((id) => PACK_INFO.find((p) => p.id === id)!)
      .map((p) => ({ ...p, priceCents: PACK_BASE_CENTS }));
  }
  return THEMED_PACK_IDS.flatMap((id) => loaded.filter((p) => p.id === id && p.onSale))
    .map((p) => ({ ...p, priceCents: p.basePriceCents }));
}

/** The shop: custom builders, themed packs and the case-only items. */
export function ShopPage() {
  const products = useProducts();
  const packs = themedPacks(usePacks());
  // Items taken off sale leave the shop once the products have loaded.
  const items = ITEMS.flatMap((item) => {
    const sold = products?.get(item.id);
    if (products && !sold?.onSale) return [];
    return [{
      ...item,
      name: sold?.name ?? item.name,
      priceCents: sold?.priceCents ?? item.priceCents,
      imageUrl: sold?.imageUrl ?? itemImageUrl(IMAGE_BASE, item.image),
    }];
  });

  return (
    <div className="page shop">
      <h1>Shop</h1>

      <section className="shop-section" aria-labelledby="shop-custom">
        <h2 id="shop-custom">Build Your Custom Experience</h2>
        <ul className="grid shop-grid">
          <li>
            <article className="card product-card" aria-labelledby="card-custom">
              <span
                className="art-custom-tester product-image"
                role="img"
                aria-label="A custom tester with switches of your choice"
              />
              <h3 id="card-custom">Custom Switch Tester</h3>
              <p className="muted">
                Choose 10, 15 or 20 switches from our catalogue, with or without transparent
                keycaps.
              </p>
              <p className="price">From {formatCents(TESTER_BASE_CENTS[10])}</p>
              <Link className="button" to="/testers/custom">
                Customize<span className="visually-hidden">the Custom Switch Tester</span>
              </Link>
            </article>
          </li>
          <li>
            <article className="card product-card" aria-labelledby="card-cube">
              <img
                className="product-image"
                src={cubeImageUrl(IMAGE_BASE, "pastel", "white")}
                alt="A white fidget cube with pastel keycaps"
                width={240}
                height={240}
              />
              <h3 id="card-cube">Fidget Cube</h3>
              <p className="muted">
                Six switches of your choice on a 3D-printed cube, in white or black.
              </p>
              <p className="price">From {formatCents(CUBE_BASE_CENTS)}</p>
              <Link className="button" to="/testers/fidget-cube">
                Customize<span className="visually-hidden">the Fidget Cube</span>
              </Link>
            </article>
          </li>
        </ul>
      </section>

      <section className="shop-section" aria-labelledby="shop-themed">
        <h2 id="shop-themed">Themed Tester Sets</h2>
        <ul className="grid shop-grid">
          {packs.map((pack) => (
            <li key={pack.id}>
              <ProductCard
                id={pack.id}
                kind="testers"
                name={pack.title}
                description={pack.description}
                imageUrl={pack.imageUrl ?? packImageUrl(IMAGE_BASE, pack.image)}
                imageAlt={`${pack.title}: a tester holding ten switches`}
                price={formatCents(pack.priceCents)}
                aboutPath={`/testers/${pack.slug}`}
                onAdd={() => addWithToast(pack.id)}
              />
            </li>
          ))}
        </ul>
      </section>

      <section className="shop-section" aria-labelledby="shop-byo">
        <h2 id="shop-byo">Bring Your Own Switches</h2>
        <ul className="grid shop-grid">
          {items.map((item) => (
            <li key={item.id}>
              <ProductCard
                id={item.id}
                kind="items"
                name={item.name}
                description={item.description}
                imageUrl={item.imageUrl}
                imageAlt={`${item.name}, without switches`}
                price={formatCents(item.priceCents)}
                onAdd={() => addWithToast(item.id)}
              />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
