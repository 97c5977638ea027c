/** A themed tester pack page. */
export function PackPage({ slug }: { slug: string }) {
  return (
    <section className="page">
      <h1>{slug}</h1>
    </section>
  );
}
