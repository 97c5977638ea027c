/** Contact: the page's frame; its feature fills it in. */
export function ContactPage() {
  return (
    <section className="page">
      <h1>Contact</h1>
    </section>
  );
}
