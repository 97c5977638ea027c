/** Sign in: the page's frame; its feature fills it in. */
export function LoginPage() {
  return (
    <section className="page">
      <h1>Sign in</h1>
    </section>
  );
}
