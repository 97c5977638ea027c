/**
 * The second factors' calls: the signed-in account's TOTP, passkeys and recovery codes, the
 * owner's security settings, and the sign-in's second step and passwordless passkey sign-in.
 */
import type {
  AddedPasskeyView,
  RecoveryCodesView,
  SecondFactorsView,
  SecuritySettingsView,
  TotpSetupView,
} from "../../../shared/second_factor_views.ts";
import { startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { api } from "../../app/api.ts";
import { adminApi } from "./admin_api.ts";

/** The signed-in account's factors. */
export function fetchFactors(): Promise<SecondFactorsView> {
  return adminApi<SecondFactorsView>("/api/admin/factors");
}

/** Starts setting up an authenticator app: a new secret and its otpauth:// URI. */
export function startTotp(): Promise<TotpSetupView> {
  return adminApi<TotpSetupView>("/api/admin/factors/totp", { method: "POST" });
}

/** Confirms the app's setup with its current code; answers the recovery codes (shown once). */
export function confirmTotp(code: string): Promise<RecoveryCodesView> {
  return adminApi<RecoveryCodesView>("/api/admin/factors/totp/confirm", {
    method: "POST",
    body: { code },
  });
}

/** Removes the authenticator app, given its current code (a wrong one is a 401, "Wrong code"). */
export async function removeTotp(code: string): Promise<void> {
  await adminApi("/api/admin/factors/totp", {
    method: "DELETE",
    body: { code },
    refusesWith401: true,
  });
}

/** A new set of recovery codes (the old set stops working). */
export function regenerateRecoveryCodes(): Promise<RecoveryCodesView> {
  return adminApi<RecoveryCodesView>("/api/admin/factors/recovery-codes", { method: "POST" });
}

/**
 * Creates a passkey on this device (the browser asks for a fingerprint or PIN) and adds it. An
 * expired or reused request is a 401 of its own, with the session still valid.
 */
export async function addPasskey(name: string): Promise<AddedPasskeyView> {
  const optionsJSON = await adminApi<Parameters<typeof startRegistration>[0]["optionsJSON"]>(
    "/api/admin/factors/passkeys/options",
    { method: "POST" },
  );
  const response = await startRegistration({ optionsJSON });
  return await adminApi<AddedPasskeyView>("/api/admin/factors/passkeys", {
    method: "POST",
    body: { name, response },
    refusesWith401: true,
  });
}

/** Removes a passkey. */
export async function removePasskey(id: string): Promise<void> {
  await adminApi(`/api/admin/factors/passkeys/${encodeURIComponent(id)}`, { method: "DELETE" });
}

/** The owner's security settings. */
export function fetchSecuritySettings(): Promise<SecuritySettingsView> {
  return adminApi<SecuritySettingsView>("/api/admin/settings/security");
}

/** Sets the owner's security settings. */
export function saveSecuritySettings(
  settings: SecuritySettingsView,
): Promise<SecuritySettingsView> {
  return adminApi<SecuritySettingsView>("/api/admin/settings/security", {
    method: "PUT",
    body: settings,
  });
}

/** Finishes a sign-in with a code from the app or a recovery code (the session cookie is set). */
export async function finishWithCode(challenge: string, code: string): Promise<void> {
  await api("/api/admin/verify/second-factor", { method: "POST", body: { challenge, code } });
}

/** Finishes a sign-in with one of the account's passkeys. */
export async function finishWithPasskey(challenge: string): Promise<void> {
  const optionsJSON = await api<Parameters<typeof startAuthentication>[0]["optionsJSON"]>(
    "/api/admin/verify/second-factor/options",
    { method: "POST", body: { challenge } },
  );
  const passkey = await startAuthentication({ optionsJSON });
  await api("/api/admin/verify/second-factor", { method: "POST", body: { challenge, passkey } });
}

/** Signs in with a passkey alone (the browser offers the shop's passkeys on this device). */
export async function signInWithPasskey(): Promise<void> {
  const optionsJSON = await api<Parameters<typeof startAuthentication>[0]["optionsJSON"]>(
    "/api/admin/passkey-sign-in/options",
    { method: "POST" },
  );
  const passkey = await startAuthentication({ optionsJSON });
  await api("/api/admin/passkey-sign-in", { method: "POST", body: { passkey } });
}

/** Whether a failure is the browser's own (the person cancelled, no passkey on this device). */
export function isPasskeyCancelled(err: unknown): boolean {
  const name = (err as Error)?.name;
  return name === "NotAllowedError" || name === "AbortError" || name === "WebAuthnError";
}
