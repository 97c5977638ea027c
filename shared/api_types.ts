/** Shapes of API answers, shared by the server (which builds them) and the client (which reads). */

/** A postal address as orders keep it. */
export interface Address {
  street: string;
  apartment: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
}

/**
 * A switch as GET /api/switches lists it: the spec's fields and nothing derivable, since every
 * byte of this list is sent with each configurator visit (the client derives image URLs and cents).
 */
export interface SwitchView {
  id: number;
  name: string;
  brand: string;
  type: string;
  force: string;
  image: string;
  available: boolean;
  /** Dollars with two decimals; may be negative or zero. */
  extraPrice: number;
  referralLink: string;
}

/** A product sold by id, as GET /api/products lists it. */
export interface ProductView {
  id: number;
  name: string;
  price: number;
  priceCents: number;
  image: string;
  imageUrl: string;
  path: string | null;
  packSlug: string | null;
  withKeycaps: boolean;
  available: boolean;
}

/** A themed pack page's data (GET /api/packs/{slug}). */
export interface PackView {
  id: number;
  idWithKeycaps: number;
  slug: string;
  title: string;
  description: string;
  image: string;
  imageUrl: string;
  basePrice: number;
  basePriceCents: number;
  priceWithKeycapsCents: number;
  switches: { id: number; name: string; brand: string; referralLink: string; imageUrl: string }[];
}

/** A switch inside a configured cart line. */
export interface LineSwitch {
  id: number;
  name: string;
  brand: string;
  image: string;
  imageUrl: string;
  extraPrice: number;
  quantity: 1;
}

/** A cart line's item, priced by the server. */
export interface PricedItem {
  id: string;
  kind: "product" | "custom" | "cube";
  productId: number | null;
  name: string;
  price: number;
  priceCents: number;
  image: string;
  imageUrl: string;
  size: number | null;
  keycaps: string | null;
  bodyColor: string | null;
  switches: LineSwitch[];
  available: boolean;
}

/** The cart as the API answers it. */
export interface CartView {
  id: string;
  items: { item: PricedItem; quantity: number }[];
  subtotal: number;
  subtotalCents: number;
  itemCount: number;
  lineCount: number;
}

/** The answer of an add: the cart and a message for a toast. */
export type CartAddResult = CartView & { message: string };
