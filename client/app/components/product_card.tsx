import { NotifyMe } from "./notify_me.tsx";
import { Link } from "react-router-dom";
import { useAvailability } from "../use_availability.ts";
import { AddToCartButton } from "./add_to_cart_button.tsx";
import { DropPanel } from "../drops/drop_panel.tsx";

/**
 * A product sold by id (a pack or an item), with its own availability check and add-to-cart
 * button. The shop and the gift guide both show it; each page keeps its own toasts in `onAdd`.
 */
export function ProductCard(
  {
    id,
    kind,
    name,
    description,
    imageUrl,
    imageAlt,
    price,
    aboutPath,
    onAdd,
    className,
    titleIdPrefix = "product",
  }: {
    id: number;
    kind: "testers" | "items";
    name: string;
    description: string;
    imageUrl: string;
    imageAlt: string;
    /** Omitted where the page shows no price (the gift guide's picks). */
    price?: string;
    /** The product's own page, linked as 'About'. */
    aboutPath?: string;
    onAdd: () => Promise<void>;
    /** Extra class names for the card, for a page's own layout. */
    className?: string;
    /** Prefix of the title's element id (`product-384`); the gift guide keeps its own (`pick`). */
    titleIdPrefix?: string;
  },
) {
  const available = useAvailability(kind, id);
  const titleId = `${titleIdPrefix}-${id}`;
  const classes = ["card product-card", className, available === false ? "unavailable" : null];
  return (
    <article
      className={classes.filter(Boolean).join(" ")}
      aria-labelledby={titleId}
      data-product-id={id}
    >
      <div className="product-image-wrap">
        <img className="product-image" src={imageUrl} alt={imageAlt} width={240} height={240} />
        {available === false && <span className="stock-overlay">Out of Stock</span>}
      </div>
      <h3 id={titleId}>{name}</h3>
      <p className="muted">{description}</p>
      {price !== undefined && <p className="price">{price}</p>}
      <div className="row product-actions">
        {aboutPath && (
          <Link className="button secondary" to={aboutPath}>
            About<span className="visually-hidden">the {name}</span>
          </Link>
        )}
        <AddToCartButton available={available} onAdd={onAdd} />
      </div>
      {available === false && <NotifyMe target={{ productId: id }} name={name} />}
      {/* An item's drop shows on its card, its only place in the shop (a pack's on its page). */}
      {kind === "items" && <DropPanel target={{ kind: "item", id }} name={name} />}
    </article>
  );
}
