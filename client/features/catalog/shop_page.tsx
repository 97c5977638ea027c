/** Shop: the page's frame; its feature fills it in. */
export function ShopPage() {
  return (
    <section className="page">
      <h1>Shop</h1>
    </section>
  );
}
