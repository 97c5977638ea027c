/** Friendly gift guide: the page's frame; its feature fills it in. */
export function GiftGuidePage() {
  return (
    <section className="page">
      <h1>Friendly gift guide</h1>
    </section>
  );
}
