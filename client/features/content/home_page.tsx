/** Keyboard switch testers: the page's frame; its feature fills it in. */
export function HomePage() {
  return (
    <section className="page">
      <h1>Keyboard switch testers</h1>
    </section>
  );
}
