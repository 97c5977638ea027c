import { type FormEvent, useState } from "react";
import { toast } from "react-hot-toast";
import { useRequest } from "../../app/use_request.ts";
import { reportAdminError } from "./admin_api.ts";
import {
  addPasskey,
  confirmTotp,
  fetchFactors,
  fetchSecuritySettings,
  isPasskeyCancelled,
  regenerateRecoveryCodes,
  removePasskey,
  removeTotp,
  saveSecuritySettings,
  startTotp,
} from "./second_factor_api.ts";
import type { TotpSetupView } from "../../../shared/second_factor_views.ts";
import { QrCode } from "./qr_code.tsx";
import { RecoveryCodesPanel } from "./recovery_codes_panel.tsx";

/** Refusals said in the server's words: the ones people can act on (a wrong code is a 401). */
const EXPLAINED = [400, 401, 403, 404, 409, 429];

/**
 * The signed-in account's second factors: an authenticator app (TOTP, with its QR code), passkeys,
 * recovery codes, and for the owner the switch that requires a factor of every staff member.
 */
export function SecondFactorSection({ owner }: { owner: boolean }) {
  const factors = useRequest("admin-factors", () => fetchFactors());
  const [codes, setCodes] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  /** Runs one change; its new recovery codes (if any) are shown, and the factors read again. */
  async function run<T>(work: () => Promise<T>, done: string, fallback: string) {
    if (busy) return;
    setBusy(true);
    try {
      const result = await work() as { recoveryCodes?: string[] } | undefined;
      if (result?.recoveryCodes) setCodes(result.recoveryCodes);
      toast.success(done);
      factors.reload();
    } catch (err) {
      if (isPasskeyCancelled(err)) toast.error("The passkey was not created.");
      else reportAdminError(err, fallback, EXPLAINED);
    } finally {
      setBusy(false);
    }
  }

  const data = factors.data;
  return (
    <section className="card second-factors" aria-labelledby="second-factors-heading">
      <h2 id="second-factors-heading">Second factor</h2>
      <p className="muted">
        With a second factor, your password alone no longer opens the dashboard: sign-in also asks
        for a code from your authenticator app or a passkey on your device.
      </p>
      {codes && <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} />}
      {!data ? <p className="loading" role="status">Loading...</p> : (
        <>
          <TotpPart
            enabled={data.totp}
            busy={busy}
            run={run}
          />
          <section aria-labelledby="passkeys-heading">
            <h3 id="passkeys-heading">Passkeys</h3>
            {data.passkeys.length === 0
              ? <p className="muted">No passkeys yet.</p>
              : (
                <ul className="passkey-list">
                  {data.passkeys.map((p) => (
                    <li key={p.id}>
                      <span>{p.name}</span>{" "}
                      <span className="muted small">
                        added {p.addedAt.slice(0, 10)}
                        {p.lastUsedAt ? `, last used ${p.lastUsedAt.slice(0, 10)}` : ""}
                      </span>{" "}
                      <button
                        type="button"
                        className="button secondary small-button"
                        aria-disabled={busy}
                        onClick={() =>
                          run(() => removePasskey(p.id), "Passkey removed", "Could not remove it")}
                      >
                        Remove {p.name}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            <AddPasskeyForm busy={busy} run={run} />
          </section>
          <section aria-labelledby="recovery-heading">
            <h3 id="recovery-heading">Recovery codes</h3>
            <p className="muted" data-testid="recovery-codes-left">
              {data.recoveryCodesLeft} unused recovery codes.
            </p>
            {(data.totp || data.passkeys.length > 0) && (
              <button
                type="button"
                className="button secondary"
                aria-disabled={busy}
                onClick={() =>
                  run(
                    regenerateRecoveryCodes,
                    "New recovery codes made; the old ones no longer work",
                    "Could not make new codes",
                  )}
              >
                New recovery codes
              </button>
            )}
          </section>
        </>
      )}
      {owner && <StaffRequirement />}
    </section>
  );
}

type Run = <T>(work: () => Promise<T>, done: string, fallback: string) => Promise<void>;

/** The authenticator app: set it up (secret, URI, QR code, confirm) or remove it with a code. */
function TotpPart({ enabled, busy, run }: { enabled: boolean; busy: boolean; run: Run }) {
  const [setup, setSetup] = useState<TotpSetupView | null>(null);
  const [code, setCode] = useState("");

  async function begin() {
    try {
      setSetup(await startTotp());
    } catch (err) {
      reportAdminError(err, "Could not start the setup", EXPLAINED);
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (enabled) {
      run(() => removeTotp(code), "Authenticator app removed", "Could not remove it")
        .then(() => setCode(""));
    } else {
      run(
        async () => {
          const answer = await confirmTotp(code);
          setSetup(null);
          setCode("");
          return answer;
        },
        "Authenticator app set up",
        "That code did not match",
      );
    }
  }

  return (
    <section aria-labelledby="totp-heading">
      <h3 id="totp-heading">Authenticator app</h3>
      {enabled && <p data-testid="totp-status">An authenticator app is set up.</p>}
      {!enabled && !setup && (
        <button type="button" className="button" aria-disabled={busy} onClick={begin}>
          Set up an authenticator app
        </button>
      )}
      {!enabled && setup && (
        <div className="totp-setup">
          <p>Scan this code with your authenticator app, or type the secret into it.</p>
          <QrCode text={setup.uri} label="QR code of the authenticator app's secret" />
          <p>
            Secret: <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <p className="small muted totp-uri">{setup.uri}</p>
        </div>
      )}
      {(enabled || setup) && (
        <form className="row" onSubmit={submit}>
          <div className="field">
            <label htmlFor="totp-code">
              {enabled ? "Current code (to remove the app)" : "Code the app shows now"}
            </label>
            <input
              id="totp-code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </div>
          <button type="submit" className="button" aria-disabled={busy}>
            {enabled ? "Remove the app" : "Confirm"}
          </button>
        </form>
      )}
    </section>
  );
}

/** Names and creates a passkey on this device. */
function AddPasskeyForm({ busy, run }: { busy: boolean; run: Run }) {
  const [name, setName] = useState("");
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    run(() => addPasskey(name.trim()), "Passkey added", "Could not add the passkey")
      .then(() => setName(""));
  }
  return (
    <form className="row" onSubmit={submit}>
      <div className="field">
        <label htmlFor="passkey-name">Name of the new passkey</label>
        <input
          id="passkey-name"
          name="passkey-name"
          maxLength={60}
          placeholder="e.g. Laptop fingerprint"
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <button type="submit" className="button" aria-disabled={busy}>Add a passkey</button>
    </form>
  );
}

/** The owner's switch: every staff member must have a second factor. */
function StaffRequirement() {
  const settings = useRequest("admin-security-settings", () => fetchSecuritySettings());
  const [saving, setSaving] = useState(false);
  if (!settings.data) return null;
  const on = settings.data.requireStaffSecondFactor;
  async function toggle() {
    if (saving) return;
    setSaving(true);
    try {
      await saveSecuritySettings({ requireStaffSecondFactor: !on });
      toast.success(!on ? "Staff must now set up a second factor" : "Requirement turned off");
      settings.reload();
    } catch (err) {
      reportAdminError(err, "Could not save", EXPLAINED);
    } finally {
      setSaving(false);
    }
  }
  return (
    <section aria-labelledby="staff-requirement-heading">
      <h3 id="staff-requirement-heading">Staff</h3>
      <label className="checkbox">
        <input type="checkbox" checked={on} onChange={toggle} aria-busy={saving} />
        Require a second factor for all staff
      </label>
      <p className="muted small">
        A staff member without one can sign in only to set one up.
      </p>
    </section>
  );
}
