import { useEffect, useState } from "react";
import type { CartView } from "../../../shared/api_types.ts";
import { useStore } from "../store/store.ts";
import { loadCart } from "./cart_service.ts";

/** The server's cart for the stored cart id, reloaded when the id changes. */
export function useCart() {
  const cartId = useStore((s) => s.cartId);
  const [cart, setCart] = useState<CartView | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let live = true;
    loadCart().then((loaded) => {
      if (!live) return;
      setCart(loaded);
      setLoading(false);
    });
    return () => {
      live = false;
    };
  }, [cartId]);
  return { cartId, cart, setCart, loading };
}
