import { type FormEvent, useState } from "react";
import { toast } from "react-hot-toast";
import type { ApiKeyView, CreatedApiKeyView } from "../../../shared/api_types.ts";
import { ROLE_LABELS, ROLES } from "../../../shared/roles.ts";
import { apiKeyCreateSchema } from "../../../shared/schemas.ts";
import { createApiKey, fetchApiKeys, reportAdminError, revokeApiKey } from "./admin_api.ts";
import { FormError, InputField } from "./form_fields.tsx";
import { useFields } from "./use_fields.ts";
import { saveRecord } from "./save_record.ts";
import { SectionStatus, useSectionData } from "./use_section.tsx";

/** A time in the owner's locale, or the given word when there is none. */
function when(iso: string | null, none: string): string {
  return iso ? new Date(iso).toLocaleString() : none;
}

/**
 * The API Keys tab (the owner's): keys for scripts instead of the password, each made with a
 * name, a role and an optional end, shown once with a Copy button, listed with its last use,
 * revoked after one question.
 */
export function ApiKeysTab() {
  const section = useSectionData(fetchApiKeys, "The API keys could not be loaded");
  const { data: apiKeys, setData: setApiKeys } = section;
  const [made, setMade] = useState<CreatedApiKeyView | null>(null);

  function added(created: CreatedApiKeyView) {
    const { key: _shownOnce, ...listed } = created;
    setApiKeys((list) => [listed, ...(list ?? [])]);
    setMade(created);
  }

  return (
    <section className="card admin-api-keys" aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading">API keys</h2>
      <p className="muted">
        A script sends its key as <code>Authorization: Bearer &lt;key&gt;</code>{" "}
        and acts with the key's role; the audit log names the key. To rotate a key, make a new one,
        switch the script to it, then revoke the old one.
      </p>
      <NewKeyForm onMade={added} />
      {made && <ShownOnce created={made} onDone={() => setMade(null)} />}
      {apiKeys
        ? (
          <KeyList
            apiKeys={apiKeys}
            onRevoked={(id) => setApiKeys((list) => (list ?? []).filter((k) => k.id !== id))}
          />
        )
        : <SectionStatus section={section} loading="Loading API keys..." />}
    </section>
  );
}

/** Name, role and an optional last day; the server checks the expiry against its own clock. */
function NewKeyForm({ onMade }: { onMade: (created: CreatedApiKeyView) => void }) {
  const fields = useFields("api-key-new", { name: "", role: "staff", expiresOn: "" });
  const [busy, setBusy] = useState(false);
  const roleId = fields.idOf("role");

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const { name, role, expiresOn } = fields.values;
    const body = { name, role, ...(expiresOn ? { expiresAt: expiresOn } : {}) };
    if (!fields.accepts(apiKeyCreateSchema, body)) return;
    const created = await saveRecord({
      request: () => createApiKey(body),
      showError: (message, field) =>
        fields.showError(message, field === "expiresAt" ? "expiresOn" : field),
      setBusy,
      failure: "The API key could not be made",
      explained: [400, 403],
    });
    if (!created) return;
    fields.reset({ name: "", role: "staff", expiresOn: "" });
    onMade(created);
  }

  return (
    <form className="admin-form" onSubmit={submit} noValidate aria-labelledby="api-key-new-heading">
      <h3 id="api-key-new-heading">New API key</h3>
      <div className="admin-form-grid">
        <InputField
          fields={fields}
          name="name"
          label="Name"
          hint="What the script is, as the list and the audit log will say it"
          maxLength={60}
        />
        <div className="field">
          <label htmlFor={roleId}>Role</label>
          <select
            id={roleId}
            name="role"
            value={fields.values.role}
            onChange={(e) =>
              fields.set("role", e.target.value)}
          >
            {ROLES.map((role) => <option key={role} value={role}>{ROLE_LABELS[role]}</option>)}
          </select>
        </div>
        <InputField
          fields={fields}
          name="expiresOn"
          label="Expires (optional)"
          hint="The key stops working at the start of this day (UTC), at most a year ahead"
          type="date"
        />
      </div>
      <FormError message={fields.errors.form} />
      <button type="submit" className="button" aria-disabled={busy || undefined}>
        Make key
      </button>
    </form>
  );
}

/** The new key, once: copied now or never seen again (only its hash is kept). */
function ShownOnce({ created, onDone }: { created: CreatedApiKeyView; onDone: () => void }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(created.key);
      toast.success("Key copied");
    } catch {
      // No clipboard (an insecure page, a refused permission): the field can be copied by hand.
      toast.error("Could not copy: select the key and copy it by hand");
    }
  }

  return (
    <div className="admin-new-key" role="status" data-testid="new-api-key">
      <p>
        <strong>Copy the key for {created.name} now: it is not shown again.</strong>{" "}
        Anyone holding it can act as {ROLE_LABELS[created.role]} until you revoke it.
      </p>
      <div className="row">
        <input
          className="admin-key-value"
          readOnly
          aria-label={`API key for ${created.name}`}
          value={created.key}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="button" onClick={copy}>Copy</button>
        <button type="button" className="button secondary" onClick={onDone}>Done</button>
      </div>
    </div>
  );
}

/** Every key with its role, dates and last use, and Revoke. */
function KeyList(
  { apiKeys, onRevoked }: { apiKeys: ApiKeyView[]; onRevoked: (id: string) => void },
) {
  const [busy, setBusy] = useState<string | null>(null);

  async function revoke(apiKey: ApiKeyView) {
    if (busy) return;
    const ok = globalThis.confirm(
      `Revoke the API key ${apiKey.name}? Scripts using it stop working at once.`,
    );
    if (!ok) return;
    setBusy(apiKey.id);
    try {
      await revokeApiKey(apiKey.id);
      toast.success(`API key ${apiKey.name} revoked`);
      onRevoked(apiKey.id);
    } catch (err) {
      reportAdminError(err, "The API key could not be revoked", [404]);
    } finally {
      setBusy(null);
    }
  }

  if (apiKeys.length === 0) return <p className="muted">No API keys yet.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption className="visually-hidden">API keys and their last use</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Made</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {apiKeys.map((apiKey) => (
            <tr key={apiKey.id} data-api-key={apiKey.name}>
              <th scope="row">{apiKey.name}</th>
              <td>
                {ROLE_LABELS[apiKey.role]}
                {apiKey.actsAs === null
                  ? <span className="muted admin-block">refused: its member was removed</span>
                  : apiKey.actsAs !== apiKey.role && (
                    <span className="muted admin-block">
                      acts as {ROLE_LABELS[apiKey.actsAs]} (its member's role now)
                    </span>
                  )}
              </td>
              <td className="small">
                {when(apiKey.createdAt, "")}
                <span className="muted admin-block">by {apiKey.createdBy}</span>
              </td>
              <td className="small">{when(apiKey.expiresAt, "Never")}</td>
              <td className="small">{when(apiKey.lastUsedAt, "Never used")}</td>
              <td>
                <button
                  type="button"
                  className="button secondary small-button"
                  aria-label={`Revoke API key ${apiKey.name}`}
                  aria-disabled={busy !== null || undefined}
                  onClick={() => revoke(apiKey)}
                >
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
