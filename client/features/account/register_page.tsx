/** Create account: the page's frame; its feature fills it in. */
export function RegisterPage() {
  return (
    <section className="page">
      <h1>Create account</h1>
    </section>
  );
}
