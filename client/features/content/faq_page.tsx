/** Frequently asked questions: the page's frame; its feature fills it in. */
export function FaqPage() {
  return (
    <section className="page">
      <h1>Frequently asked questions</h1>
    </section>
  );
}
