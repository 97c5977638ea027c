import { addTesterToCart } from "../../app/cart/cart_service.ts";
import { toastAddedWithLink, toastAddFailed } from "../../app/cart/cart_toasts.tsx";

/** Adds a configured tester or cube and says how it went in a toast; true when it was added. */
export async function addConfiguration(
  payload: Parameters<typeof addTesterToCart>[0],
): Promise<boolean> {
  try {
    const result = await addTesterToCart(payload);
    toastAddedWithLink(result.message || "Added to cart", "Go to Cart");
    return true;
  } catch (err) {
    toastAddFailed(err, "Failed to add to cart. Please try again.", true);
    return false;
  }
}
