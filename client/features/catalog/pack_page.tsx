import { useState } from "react";
import { NotifyMe } from "../../app/components/notify_me.tsx";
import { DropPanel } from "../../app/drops/drop_panel.tsx";
import { Link } from "react-router-dom";
import { toast } from "react-hot-toast";
import type { PackView } from "../../../shared/api_types.ts";
import { formatCents } from "../../../shared/pricing.ts";
import { api, ApiError } from "../../app/api.ts";
import { addItemToCart } from "../../app/cart/cart_service.ts";
import { toastAddedWithLink, toastAddFailed } from "../../app/cart/cart_toasts.tsx";
import { AddToCartButton } from "../../app/components/add_to_cart_button.tsx";
import { useAvailability } from "../../app/use_availability.ts";
import { type Request, useApiRequest } from "../../app/use_request.ts";
import type { AvailabilityView } from "../../../shared/api_types.ts";

/** Loads GET /api/packs/{slug}; a failure is logged and the page offers to try again. */
function usePack(slug: string): Request<PackView> {
  const path = `/api/packs/${encodeURIComponent(slug)}`;
  return useApiRequest(path, (pack: PackView) => pack, async (signal) => {
    try {
      return await api<PackView>(path, { signal });
    } catch (err) {
      if (!signal.aborted) console.warn(`Tester pack ${slug} could not be loaded`, err);
      throw err;
    }
  });
}

/** What the shopper reads when the pack could not be loaded. */
function failureMessage(err: unknown): string {
  if (err instanceof ApiError && err.status === 404) return "This tester is not sold right now.";
  if (err instanceof ApiError && err.status === 0) return err.message;
  return "Something went wrong on our side. Please try again.";
}

/** A themed tester pack page (docs/product.md#pack-pages). */
export function PackPage({ slug }: { slug: string }) {
  const load = usePack(slug);

  if (load.state === "idle" || load.state === "loading") {
    return (
      <div className="page pack-page">
        <p className="loading" role="status">Loading tester...</p>
      </div>
    );
  }
  if (load.state === "failed") {
    return (
      <div className="page pack-page">
        <h1>We couldn't load this tester</h1>
        <p className="error-text" role="alert">{failureMessage(load.error)}</p>
        <div className="row">
          <button type="button" className="button" onClick={load.reload}>
            Try again
          </button>
          <Link className="button secondary" to="/shop">Back to the shop</Link>
        </div>
      </div>
    );
  }
  return <PackDetails pack={load.data} />;
}

/**
 * The loaded pack: image, keycap option, price, add to cart and the switches inside. A pack the
 * owner took off sale still shows what it was, says it is no longer sold and cannot be added.
 */
function PackDetails({ pack }: { pack: PackView }) {
  const onSale = pack.onSale;
  const [withKeycaps, setWithKeycaps] = useState(false);
  // Set when an add finds the pack sold out since the page loaded, so the page says so too.
  const [soldOut, setSoldOut] = useState<number | null>(null);
  const currentId = withKeycaps ? pack.idWithKeycaps : pack.id;
  const checked = useAvailability("testers", currentId);
  const available = soldOut === currentId ? false : checked;
  const priceCents = withKeycaps ? pack.priceWithKeycapsCents : pack.basePriceCents;

  async function add() {
    // Stock may have run out since the page loaded; a failed check counts as unavailable.
    const fresh = await api<AvailabilityView>(`/api/testers/${currentId}/availability`)
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
          className={`pack-image product-image-wrap${
            !onSale || available === false ? " unavailable" : ""
          }`}
        >
          <img
            className="product-image"
            src={pack.imageUrl}
            alt={`${pack.title}: a tester holding its ten switches`}
            width={480}
            height={480}
            // The page's largest paint: fetched before anything the page does not show.
            fetchPriority="high"
          />
          {/* Off sale, stock is beside the point: the text below says it is no longer sold. */}
          {onSale && available === false && <span className="stock-overlay">Out of Stock</span>}
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
          {!onSale && (
            <p className="warn-text pack-not-sold" id="pack-not-sold" data-testid="pack-not-sold">
              This tester is no longer sold.
            </p>
          )}
          <AddToCartButton
            // Off sale, the button says so rather than whatever the stock is.
            available={onSale ? available : true}
            onAdd={add}
            className="pack-add"
            disabled={!onSale}
            label={onSale ? undefined : "No longer sold"}
          />
          {onSale && available === null && (
            <p className="muted small" role="status">Checking stock...</p>
          )}
          {onSale && available === false && (
            <NotifyMe
              key={currentId}
              target={{ productId: currentId }}
              name={withKeycaps ? `${pack.title} with keycaps` : pack.title}
            />
          )}
          {/* A pack's drop is its pack id (both keycap choices count toward it). */}
          {onSale && <DropPanel target={{ kind: "pack", id: pack.id }} name={pack.title} />}
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
