/** What the second-factor routes answer (the dashboard's Security section reads these). */

/** A passkey as listed (no key material). */
export interface PasskeyView {
  id: string;
  name: string;
  addedAt: string;
  lastUsedAt: string | null;
}

/** `GET /api/admin/factors`: the signed-in account's factors. */
export interface SecondFactorsView {
  totp: boolean;
  passkeys: PasskeyView[];
  recoveryCodesLeft: number;
}

/** `POST /api/admin/factors/totp`: the secret to type in, and the URI to scan. */
export interface TotpSetupView {
  secret: string;
  uri: string;
}

/** Answers that hand out new recovery codes (shown once). */
export interface RecoveryCodesView {
  recoveryCodes: string[];
}

/** `POST /api/admin/factors/passkeys`: the passkey, and the first recovery codes if new. */
export interface AddedPasskeyView {
  passkey: PasskeyView;
  recoveryCodes?: string[];
}

/** `GET/PUT /api/admin/settings/security`. */
export interface SecuritySettingsView {
  requireStaffSecondFactor: boolean;
}
