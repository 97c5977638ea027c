/** Checkout: the page's frame; its feature fills it in. */
export function CheckoutPage() {
  return (
    <section className="page">
      <h1>Checkout</h1>
    </section>
  );
}
