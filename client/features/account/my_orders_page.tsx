/** My orders: the page's frame; its feature fills it in. */
export function MyOrdersPage() {
  return (
    <section className="page">
      <h1>My orders</h1>
    </section>
  );
}
