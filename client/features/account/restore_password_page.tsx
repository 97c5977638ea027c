/** Restore password: the page's frame; its feature fills it in. */
export function RestorePasswordPage() {
  return (
    <section className="page">
      <h1>Restore password</h1>
    </section>
  );
}
