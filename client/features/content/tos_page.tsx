/** Terms of service: the page's frame; its feature fills it in. */
export function TosPage() {
  return (
    <section className="page">
      <h1>Terms of service</h1>
    </section>
  );
}
