/** Refund policy: the page's frame; its feature fills it in. */
export function RefundPolicyPage() {
  return (
    <section className="page">
      <h1>Refund policy</h1>
    </section>
  );
}
