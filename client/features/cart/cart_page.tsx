/** Cart: the page's frame; its feature fills it in. */
export function CartPage() {
  return (
    <section className="page">
      <h1>Cart</h1>
    </section>
  );
}
