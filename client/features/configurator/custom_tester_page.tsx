/** Custom Switch Tester: the page's frame; its feature fills it in. */
export function CustomTesterPage() {
  return (
    <section className="page">
      <h1>Custom Switch Tester</h1>
    </section>
  );
}
