import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { toast } from "react-hot-toast";
import type { PackView } from "../../../shared/api_types.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { api, ApiError } from "../../app/api.ts";
import { addItemToCart } from "../../app/cart/cart_service.ts";
import { toastAddedWithLink, toastAddFailed } from "../../app/cart/cart_toasts.tsx";
import { AddToCartButton } from "../../app/components/add_to_cart_button.tsx";
import { useAvailability } from "../../app/use_availability.ts";

type Load =
  | { state: "loading" }
  | { state: "error"; message: string }
  | { state: "ready"; pack: PackView };

/** Loads GET /api/packs/{slug}; `attempt` changes to retry. */
function usePack(slug: string, attempt: number): Load {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    setLoad({ state: "loading" });
    api<PackView>(`/api/packs/${encodeURIComponent(slug)}`, { signal: controller.signal })
      .then((pack) => setLoad({ state: "ready", pack }))
      .catch((err) => {
        if (controller.signal.aborted) return;
        console.warn(`Tester pack ${slug} could not be loaded`, err);
        const message = err instanceof ApiError && err.status === 404
          ? "This tester is not sold right now."
          : err instanceof ApiError && err.status === 0
          ? err.message
          : "Something went wrong on our side. Please try again.";
        setLoad({ state: "error", message });
      });
    return () => controller.abort();
  }, [slug, attempt]);
  return load;
}

/** A themed tester pack page (docs/product.md#pack-pages). */
export function PackPage({ slug }: { slug: string }) {
  const [attempt, setAttempt] = useState(0);
  const load = usePack(slug, attempt);

  if (load.state === "loading") {
    return (
      <div className="page pack-page">
        <p className="loading" role="status">Loading tester...</p>
      </div>
    );
  }
  if (load.state === "error") {
    return (
      <div className="page pack-page">
        <h1>We couldn't load this tester</h1>
        <p className="error-text" role="alert">{load.message}</p>
        <div className="row">
          <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
          <Link className="button secondary" to="/shop">Back to the shop</Link>
        </div>
      </div>
    );
  }
  return <PackDetails pack={load.pack} />;
}

/** The loaded pack: image, keycap option, price, add to cart and the switches inside. */
function PackDetails({ pack }: { pack: PackView }) {
  const [withKeycaps, setWithKeycaps] = useState(false);
  // Set when an add finds the pack sold out since the page loaded, so the page says so too.
  const [soldOut, setSoldOut] = useState<number | null>(null);
  const currentId = withKeycaps ? pack.idWithKeycaps : pack.id;
  const checked = useAvailability("testers", currentId);
  const available = soldOut === currentId ? false : checked;
  const priceCents = withKeycaps ? pack.priceWithKeycapsCents : pack.basePriceCents;

  async function add() {
    // Stock may have run out since the page loaded; a failed check counts as unavailable.
    const fresh = await api<{ available: boolean }>(`/api/testers/${currentId}/availability`)
      .then((r) => r.available === true, () => false);
    if (!fresh) {
      setSoldOut(currentId);
      toast.error("This tester is currently out of stock");
      return;
    }
    try {
      await addItemToCart(currentId);
      toastAddedWithLink("Added to cart", "View Cart");
    } catch (err) {
      toastAddFailed(err, "Failed to add to cart. Please try again.");
    }
  }

  return (
    <article className="page pack-page" aria-labelledby="pack-title">
      <div className="pack-layout">
        <div
          className={`pack-image product-image-wrap${available === false ? " unavailable" : ""}`}
        >
          <img
            className="product-image"
            src={pack.imageUrl}
            alt={`${pack.title}: a tester holding its ten switches`}
            width={480}
            height={480}
          />
          {available === false && <span className="stock-overlay">Out of Stock</span>}
        </div>
        <div className="pack-info">
          <p className="muted small">
            <Link to="/shop">Shop</Link> / Themed tester
          </p>
          <h1 id="pack-title">{pack.title}</h1>
          <p>{pack.description}</p>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={withKeycaps}
              onChange={(e) => setWithKeycaps(e.target.checked)}
            />
            Add transparent keycaps (+$2)
          </label>
          <p className="price pack-price" data-testid="pack-price" aria-live="polite">
            {formatCents(priceCents)}
          </p>
          <AddToCartButton available={available} onAdd={add} className="pack-add" />
          {available === null && <p className="muted small" role="status">Checking stock...</p>}
        </div>
      </div>

      <section className="pack-contains" aria-labelledby="contains-title">
        <h2 id="contains-title">Contains</h2>
        <ul className="switch-list">
          {pack.switches.map((s) => (
            <li key={s.id}>
              <img src={s.imageUrl} alt="" width={48} height={48} loading="lazy" />
              <span>
                <a href={s.referralLink} target="_blank" rel="noopener noreferrer">
                  {s.name}
                  <span className="visually-hidden">(opens in a new tab)</span>
                </a>
                <span className="muted switch-brand">{s.brand}</span>
              </span>
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}
