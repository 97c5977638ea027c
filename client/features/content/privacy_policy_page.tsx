/** Privacy policy: the page's frame; its feature fills it in. */
export function PrivacyPolicyPage() {
  return (
    <section className="page">
      <h1>Privacy policy</h1>
    </section>
  );
}
