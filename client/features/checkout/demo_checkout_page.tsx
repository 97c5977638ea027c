/** The demo provider's hosted checkout page. */
export function DemoCheckoutPage() {
  return (
    <section className="page">
      <h1>Demo checkout</h1>
    </section>
  );
}
