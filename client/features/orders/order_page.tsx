/** Your order: the page's frame; its feature fills it in. */
export function OrderPage() {
  return (
    <section className="page">
      <h1>Your order</h1>
    </section>
  );
}
