/**
 * Request shapes of the second factors (the dashboard's Security section and the sign-in's second
 * step). Messages are written for the person who will read them.
 */
import { z } from "zod";

const CODE_MESSAGE = "Enter the 6-digit code from your app, or a recovery code";

/**
 * A code as typed: a TOTP code ("123 456") or a recovery code ("ABCDE-FGHJK"). Anything of another
 * shape is refused here, before it counts as a try or is compared.
 */
const codeSchema = z.string({ error: CODE_MESSAGE }).trim()
  .regex(/^[0-9A-Za-z -]{6,24}$/, CODE_MESSAGE);

/** A challenge token of the sign-in's second step. */
const challengeSchema = z.string({ error: "The sign-in has expired; enter your password again" })
  .min(1, "The sign-in has expired; enter your password again")
  .max(100, "The sign-in has expired; enter your password again");

/**
 * A WebAuthn response as @simplewebauthn/browser sends it; only its outline is checked here
 * (sizes bound what is parsed), the library verifies the rest.
 */
const webauthnResponseSchema = z.looseObject({
  id: z.string().min(1).max(1400),
  rawId: z.string().min(1).max(1400),
  type: z.literal("public-key"),
  response: z.looseObject({ clientDataJSON: z.string().min(1).max(4000) }),
  clientExtensionResults: z.looseObject({}).optional().default({}),
}, { error: "Send the passkey's answer as the browser gave it" });

/** Body of POST /api/admin/factors/totp/confirm and DELETE /api/admin/factors/totp. */
export const totpCodeSchema = z.object({ code: codeSchema });

/** Body of POST /api/admin/factors/passkeys: its name and the browser's registration answer. */
export const addPasskeySchema = z.object({
  name: z.string({ error: "Name the passkey" }).trim().min(1, "Name the passkey")
    .max(60, "A passkey's name has at most 60 characters"),
  response: webauthnResponseSchema,
});

/** Body of POST /api/admin/verify/second-factor/options. */
export const secondStepOptionsSchema = z.object({ challenge: challengeSchema });

/** Body of POST /api/admin/verify/second-factor: a code, or a passkey's answer. */
export const secondStepSchema = z.union([
  z.object({ challenge: challengeSchema, code: codeSchema }),
  z.object({ challenge: challengeSchema, passkey: webauthnResponseSchema }),
], { error: "Send the challenge with a code or a passkey" });

/** Body of POST /api/admin/passkey-sign-in. */
export const passkeySignInSchema = z.object({ passkey: webauthnResponseSchema });

/** Body of PUT /api/admin/settings/security. */
export const securitySettingsSchema = z.object({
  requireStaffSecondFactor: z.boolean({ error: "requireStaffSecondFactor must be true or false" }),
});
