import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { toast } from "react-hot-toast";
import { type DeleteAccountInput, deleteAccountSchema } from "../../../shared/schemas.ts";
import { api, ApiError } from "../../app/api.ts";
import { TextField } from "../../app/components/text_field.tsx";
import { useStore } from "../../app/store/store.ts";
import { saveFile } from "../../app/save_file.ts";
import { useAccountFields } from "./use_account_fields.ts";

/**
 * "Your data" under My orders (the privacy policy's promise): everything the shop keeps about the
 * account as a JSON file, and deleting the account (confirmed with the password).
 */
export function MyData() {
  const navigate = useNavigate();
  const form = useAccountFields("delete-account");
  const [busy, setBusy] = useState<"export" | "delete" | null>(null);
  const [asking, setAsking] = useState(false);

  async function download() {
    if (busy) return;
    setBusy("export");
    try {
      saveFile(await api<Blob>("/auth/me/export", { as: "blob" }), "my_data.json");
    } catch (err) {
      toast.error(
        err instanceof ApiError && err.status === 401
          ? err.message
          : "Your data could not be downloaded. Please try again.",
      );
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    const body = { password: form.values.password };
    if (!form.check(deleteAccountSchema, body)) return;
    setBusy("delete");
    try {
      await api("/auth/me", { method: "DELETE", body: body satisfies DeleteAccountInput });
      useStore.getState().signOut();
      toast.success("Your account is deleted");
      navigate("/");
    } catch (err) {
      if (err instanceof ApiError && (err.status === 401 || err.status === 429)) {
        form.showError("password", err.message);
        document.getElementById(form.idOf("password"))?.focus();
      } else if (err instanceof ApiError && err.status === 409) {
        // An order still to ship (or a checkout still open): the server's sentence says which.
        toast.error(err.message);
      } else toast.error("The account could not be deleted. Please try again.");
      setBusy(null);
    }
  }

  return (
    <section className="card account-data" aria-labelledby="my-data-heading">
      <h2 id="my-data-heading">Your data</h2>
      <p>
        Download everything we keep about your account (your email, your orders and their addresses)
        as a file.
      </p>
      <button
        type="button"
        className="button secondary"
        aria-disabled={busy !== null}
        onClick={download}
      >
        {busy === "export" ? "Preparing..." : "Download my data"}
      </button>
      {!asking
        ? (
          <p>
            <button type="button" className="link-button" onClick={() => setAsking(true)}>
              Delete my account
            </button>
          </p>
        )
        : (
          <form
            className="account-delete"
            aria-labelledby="delete-account-heading"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (busy === null) remove();
            }}
          >
            <h3 id="delete-account-heading">Delete my account</h3>
            <p>
              Your account and its sign-ins are deleted for good. Orders stay in the shop's books
              for accounting, without your name, email or street address.
            </p>
            <TextField
              id={form.idOf("password")}
              name="password"
              label="Your password, to confirm"
              type="password"
              autoComplete="current-password"
              required
              value={form.values.password}
              error={form.errors.password}
              onChange={(value) => form.change("password", value)}
            />
            <div className="row">
              <button type="submit" className="button danger" aria-disabled={busy !== null}>
                {busy === "delete" ? "Deleting..." : "Delete my account"}
              </button>
              <button type="button" className="link-button" onClick={() => setAsking(false)}>
                Keep my account
              </button>
            </div>
          </form>
        )}
    </section>
  );
}
