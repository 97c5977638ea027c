/** Admin Access: the page's frame; its feature fills it in. */
export function AdminPage() {
  return (
    <section className="page">
      <h1>Admin Access</h1>
    </section>
  );
}
