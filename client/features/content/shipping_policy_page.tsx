/** Shipping policy: the page's frame; its feature fills it in. */
export function ShippingPolicyPage() {
  return (
    <section className="page">
      <h1>Shipping policy</h1>
    </section>
  );
}
