/** Completing your payment: the page's frame; its feature fills it in. */
export function CompletionPage() {
  return (
    <section className="page">
      <h1>Completing your payment</h1>
    </section>
  );
}
