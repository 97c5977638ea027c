/** Custom Fidget Cube: the page's frame; its feature fills it in. */
export function FidgetCubePage() {
  return (
    <section className="page">
      <h1>Custom Fidget Cube</h1>
    </section>
  );
}
