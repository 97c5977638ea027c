import { useState } from "react";
import { toast } from "react-hot-toast";
import { ApiError } from "../../app/api.ts";
import { reportAdminError, testEmail, testPing } from "./admin_api.ts";

/** The Test tab: pings the server and queues a sample order confirmation email. */
export function TestTab() {
  const [busy, setBusy] = useState<"ping" | "email" | null>(null);

  async function run(which: "ping" | "email") {
    // Busy buttons are aria-disabled, not disabled, so the pressed one keeps the focus.
    if (busy) return;
    setBusy(which);
    try {
      const text = await (which === "ping" ? testPing() : testEmail());
      toast.success(text, { duration: 5000 });
    } catch (err) {
      const fallback = which === "ping" ? "Failed to test ping" : "Failed to test email";
      reportAdminError(err, err instanceof ApiError ? fallback : "An error occurred");
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="card admin-test" aria-labelledby="test-endpoints-heading">
      <h2 id="test-endpoints-heading">Test Endpoints</h2>
      <p className="muted">
        Test Ping asks the server whether it is up. Test Order Confirmation sends a sample order
        confirmation email to the shop's own address.
      </p>
      <div className="row">
        <button
          type="button"
          className="button"
          aria-disabled={busy !== null || undefined}
          onClick={() => run("ping")}
        >
          Test Ping
        </button>
        <button
          type="button"
          className="button secondary"
          aria-disabled={busy !== null || undefined}
          onClick={() => run("email")}
        >
          Test Order Confirmation
        </button>
      </div>
    </section>
  );
}
